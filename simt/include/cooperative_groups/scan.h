// cg::inclusive_scan and cg::exclusive_scan for the emulator
// (details/collectives.h has the algorithms).
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/details/collectives.h>

namespace cooperative_groups {

template <typename TyGroup, typename TyVal, typename TyFn>
SIMT_NO_COVERAGE auto inclusive_scan(const TyGroup& group, TyVal&& val, TyFn&& op, const char* simt_file = __builtin_FILE(),
                    int simt_line = __builtin_LINE()) -> decltype(op(val, val)) {
    details::check_group<TyGroup>();
    return details::scan_inclusive(group, val, op, simt_file, simt_line);
}

template <typename TyGroup, typename TyVal>
SIMT_NO_COVERAGE details::remove_qual<TyVal> inclusive_scan(const TyGroup& group, TyVal&& val, const char* simt_file = __builtin_FILE(),
                                           int simt_line = __builtin_LINE()) {
    details::check_group<TyGroup>();
    return details::scan_inclusive(group, val, plus<details::remove_qual<TyVal>>(), simt_file, simt_line);
}

template <typename TyGroup, typename TyVal, typename TyFn>
SIMT_NO_COVERAGE auto exclusive_scan(const TyGroup& group, TyVal&& val, TyFn&& op, const char* simt_file = __builtin_FILE(),
                    int simt_line = __builtin_LINE()) -> decltype(op(val, val)) {
    details::check_group<TyGroup>();
    return details::scan_exclusive(group, val, op, simt_file, simt_line);
}

template <typename TyGroup, typename TyVal>
SIMT_NO_COVERAGE details::remove_qual<TyVal> exclusive_scan(const TyGroup& group, TyVal&& val, const char* simt_file = __builtin_FILE(),
                                           int simt_line = __builtin_LINE()) {
    details::check_group<TyGroup>();
    return details::scan_exclusive(group, val, plus<details::remove_qual<TyVal>>(), simt_file, simt_line);
}

}  // namespace cooperative_groups
