#!/bin/sh
# expect-count.sh COUNT MESSAGE PROGRAM [ARGS...]: passes when PROGRAM fails
# and MESSAGE occurs exactly COUNT times in its output (a problem a lab suite
# has shown in full is not shown again for the next dataset).
count=$1 message=$2
shift 2
if out=$("$@" 2>&1); then
    printf '%s\n%s\n' "expected $1 to fail, but it passed:" "$out"
    exit 1
fi
seen=$(printf '%s\n' "$out" | grep -cF "$message")
if [ "$seen" -ne "$count" ]; then
    printf '"%s" occurs %s times in the output, not %s:\n%s\n' "$message" "$seen" "$count" "$out"
    exit 1
fi
echo "occurs $count time(s) as expected: $message"
