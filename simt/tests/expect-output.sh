#!/bin/sh
# expect-output.sh MESSAGE PROGRAM [ARGS...]: passes when PROGRAM fails and
# its output contains MESSAGE (a planted error must be reported as such).
message=$1
shift
if out=$("$@" 2>&1); then
    printf '%s\n%s\n' "expected $1 to fail, but it passed:" "$out"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -qF -e "$message"; then
    printf 'the output does not say "%s":\n%s\n' "$message" "$out"
    exit 1
fi
echo "reported as expected: $message"
