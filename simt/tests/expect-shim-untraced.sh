#!/usr/bin/env bash
# expect-shim-untraced.sh PROGRAM: no function of the emulator's shim in
# PROGRAM (a build of kernel files, such as the differential suite's, whose
# cases call every construct the shim has) carries GCC's basic-block trace
# calls: the shim's branches are the emulator's, and a kernel's trace must
# hold only the student's code (simt/docs/divergence.md). Exempt:
# the launch machinery that calls the kernel in each thread (a block each,
# the same in every lane). Prints the
# offenders (names without template arguments); exit 1 if any.
set -u
program=$1
offenders=$(objdump -d --no-show-raw-insn -C "$program" \
    | awk '/^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn) }
           /call.*<__sanitizer_cov_trace_pc/ { seen[fn] = 1 }
           END { for (f in seen) print f }' \
    | sed -E 's/<[^<>]*(<[^<>]*(<[^<>]*>[^<>]*)*>[^<>]*)*>//g; s/\(.*//; s/^.* //' \
    | grep -E '^(simt::|cooperative_groups::|cuda::|dim3::|make_[a-z0-9_]+$|__[a-z][a-z0-9_]*$|u?l{0,2}(min|max)$|(f|l|ll)?abs$|f(min|max)f?$)' \
    | grep -vE '^simt::(run_launch|launch|launch_with_args|call_kernel|call_device|launch_through_api|site_key)$' \
    | sort -u)
if [ -n "$offenders" ]; then
    echo "shim functions GCC traces (give them no_sanitize_coverage):"
    echo "$offenders" | cut -c1-200
    exit 1
fi
echo "no shim function in $program is traced"
