// cg::reduce for the emulator (details/collectives.h has the algorithms).
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/details/collectives.h>

namespace cooperative_groups {

// The reduction of `val` over a tile or coalesced group with `op`
// (cg::plus<T>(), cg::less<T>() for the least, ..., or any binary function).
template <typename TyGroup, typename TyVal, typename TyFn>
SIMT_NO_COVERAGE auto reduce(const TyGroup& group, TyVal&& val, TyFn&& op, const char* simt_file = __builtin_FILE(),
            int simt_line = __builtin_LINE()) -> decltype(op(val, val)) {
    details::check_group<TyGroup>();
    return details::reduce_group(group, val, op, simt_file, simt_line);
}

}  // namespace cooperative_groups
