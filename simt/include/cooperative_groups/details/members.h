// The end of <cooperative_groups.h>, which includes it once every group is
// declared: thread_group's members, by the kind of group it holds, and the
// free functions over any group. Not for inclusion on its own.
#pragma once

#include <cooperative_groups.h>

#include <utility>

namespace cooperative_groups {

// ---- thread_group's members, by the kind it holds --------------------------------
SIMT_NO_COVERAGE inline unsigned long long thread_group::size() const {
    switch (data_.type) {
        case details::coalesced_group_id: return data_.size;
        case details::thread_block_id: return details::cta::size();
        case details::grid_group_id: return grid_group::size();
    }
    return 0;
}

SIMT_NO_COVERAGE inline unsigned long long thread_group::thread_rank() const {
    switch (data_.type) {
        case details::coalesced_group_id: return details::popc(data_.mask & details::lanemask_lt());
        case details::thread_block_id: return details::cta::thread_rank();
        case details::grid_group_id: return grid_group::thread_rank();
    }
    return 0;
}

SIMT_NO_COVERAGE inline void thread_group::sync(const char* simt_file, int simt_line) const {
    switch (data_.type) {
        case details::coalesced_group_id: __syncwarp(data_.mask, simt_file, simt_line); break;
        case details::thread_block_id: ::simt::syncthreads(simt_file, simt_line); break;
        case details::grid_group_id: ::simt::grid_sync(simt_file, simt_line); break;
    }
}

// ---- free functions ------------------------------------------------------------
template <class GroupT>
SIMT_NO_COVERAGE void sync(const GroupT& g, SIMT_CG_AT) {
    g.sync(simt_file, simt_line);
}
template <class GroupT>
SIMT_NO_COVERAGE auto thread_rank(const GroupT& g) -> decltype(g.thread_rank()) {
    return g.thread_rank();
}
template <class GroupT>
SIMT_NO_COVERAGE auto group_size(const GroupT& g) -> decltype(g.num_threads()) {
    return g.num_threads();
}

// invoke_one: the group's first thread calls fn; invoke_one_broadcast hands
// its result to every thread of the group.
template <typename Group, typename Fn, typename... Args>
SIMT_NO_COVERAGE void invoke_one(const Group& g, Fn&& fn, Args&&... args) {
    if (g.thread_rank() == 0) std::forward<Fn>(fn)(std::forward<Args>(args)...);
    g.sync();
}
template <typename Group, typename Fn, typename... Args>
SIMT_NO_COVERAGE auto invoke_one_broadcast(const Group& g, Fn&& fn, Args&&... args)
    -> details::remove_qual<decltype(std::forward<Fn>(fn)(std::forward<Args>(args)...))> {
    using R = details::remove_qual<decltype(std::forward<Fn>(fn)(std::forward<Args>(args)...))>;
    R result{};
    if (g.thread_rank() == 0) result = std::forward<Fn>(fn)(std::forward<Args>(args)...);
    return g.shfl(result, 0);
}

}  // namespace cooperative_groups
