#!/bin/sh
# expect-skip.sh MESSAGE PROGRAM [ARGS...]: passes when PROGRAM exits 77
# (skipped) and its output contains MESSAGE: a lab whose scan.cu the emulator
# cannot run is skipped, saying why, never failed.
message=$1
shift
out=$("$@" 2>&1)
rc=$?
if [ "$rc" -ne 77 ]; then
    printf 'expected %s to exit 77 (skipped), but it exited %s:\n%s\n' "$1" "$rc" "$out"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -qF -e "$message"; then
    printf 'the output does not say "%s":\n%s\n' "$message" "$out"
    exit 1
fi
echo "skipped as expected: $message"
