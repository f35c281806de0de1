#!/bin/sh
# expect-compile-error.sh MESSAGE FILE COMPILER [ARGS...]: passes when
# compiling FILE fails and the compiler's output contains MESSAGE.
message=$1 file=$2
shift 2
if out=$("$@" -fsyntax-only -x c++ "$file" 2>&1); then
    echo "expected a compile error, but $file compiled"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -qF "$message"; then
    printf 'the compile error does not say "%s":\n%s\n' "$message" "$out"
    exit 1
fi
echo "rejected as expected: $message"
