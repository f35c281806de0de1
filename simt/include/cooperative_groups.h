// CUDA's cooperative groups for the emulator, as a course uses them: the
// thread block, its tiles of up to 32 threads (tiled_partition<N> and the
// dynamic tiled_partition(g, n)), coalesced groups, the grid of a cooperative
// launch, and their members. Each collective runs CUDA's own algorithm on the
// emulator's warp functions (warp.hpp), so results are those of a GPU bit for
// bit (a floating-point reduction adds in the GPU's order). cg::reduce is in
// <cooperative_groups/reduce.h>, the scans in <cooperative_groups/scan.h>.
// Every member that waits takes the caller's line as two defaulted trailing
// parameters, for the emulator's reports. None of it is in the basic-block
// traces (SIMT_NO_COVERAGE, warp.hpp): its branches are the emulator's.
#pragma once

#include <simt/cuda.hpp>

#include <type_traits>
#include <utility>

#define SIMT_CG_AT const char *simt_file = __builtin_FILE(), int simt_line = __builtin_LINE()

namespace cooperative_groups {

class thread_group;
class thread_block;
class coalesced_group;
class grid_group;
template <unsigned int Size, typename ParentT>
class thread_block_tile;

namespace details {

constexpr unsigned int coalesced_group_id = 1;
constexpr unsigned int thread_block_id = 2;
constexpr unsigned int grid_group_id = 3;

template <typename T>
using remove_qual = std::remove_cv_t<std::remove_reference_t<T>>;

SIMT_NO_COVERAGE inline unsigned laneid() { return ::simt::lane_id(); }
SIMT_NO_COVERAGE inline unsigned lanemask_lt() { return (1u << laneid()) - 1u; }
SIMT_NO_COVERAGE inline unsigned popc(unsigned x) { return static_cast<unsigned>(__builtin_popcount(x)); }
// The lane of the n-th (from 0) lane of `mask`, or 32.
SIMT_NO_COVERAGE inline unsigned nth_lane(unsigned mask, unsigned n) {
    for (unsigned l = 0; l < 32; ++l)
        if (mask >> l & 1u) {
            if (n == 0) return l;
            --n;
        }
    return 32;
}
// The lane `delta` lanes of `mask` above (below, for a negative delta) `lane`, or 32.
SIMT_NO_COVERAGE inline unsigned lane_apart(unsigned mask, unsigned lane, int delta) {
    int l = static_cast<int>(lane);
    for (int left = delta < 0 ? -delta : delta; left > 0;) {
        l += delta < 0 ? -1 : 1;
        if (l < 0 || l > 31) return 32;
        if (mask >> l & 1u) --left;
    }
    return static_cast<unsigned>(l);
}

namespace cta {
SIMT_NO_COVERAGE inline unsigned thread_rank() {
    const dim3 d = blockDim;
    const uint3 t = threadIdx;
    return t.x + d.x * (t.y + d.y * t.z);
}
SIMT_NO_COVERAGE inline unsigned size() {
    const dim3 d = blockDim;
    return d.x * d.y * d.z;
}
}  // namespace cta

// What the group types share: the lanes of a warp's group and its place
// among the groups its parent was partitioned into.
struct group_data {
    unsigned type = 0;
    unsigned mask = 0;
    unsigned size = 0;
    unsigned meta_rank = 0, meta_size = 1;
    bool tiled = false;
    SIMT_NO_COVERAGE group_data() noexcept {}
};

struct access;  // the partitions' way into the groups

}  // namespace details

// ---- thread_group: any group, its kind known at run time ---------------------
class thread_group {
    friend struct details::access;

protected:
    details::group_data data_;
    SIMT_NO_COVERAGE explicit thread_group(unsigned type) { data_.type = type; }

public:
    unsigned long long size() const;
    SIMT_NO_COVERAGE unsigned long long num_threads() const { return size(); }
    unsigned long long thread_rank() const;
    void sync(SIMT_CG_AT) const;
    SIMT_NO_COVERAGE unsigned int get_type() const { return data_.type; }
};

// ---- thread_block ---------------------------------------------------------------
class thread_block : public thread_group {
    friend thread_block this_thread_block();
    SIMT_NO_COVERAGE thread_block() : thread_group(details::thread_block_id) {}

public:
    static constexpr unsigned int _group_id = details::thread_block_id;
    SIMT_NO_COVERAGE static void sync(SIMT_CG_AT) { ::simt::syncthreads(simt_file, simt_line); }
    SIMT_NO_COVERAGE static unsigned int size() { return details::cta::size(); }
    SIMT_NO_COVERAGE static unsigned int num_threads() { return details::cta::size(); }
    SIMT_NO_COVERAGE static unsigned int thread_rank() { return details::cta::thread_rank(); }
    SIMT_NO_COVERAGE static dim3 group_index() {
        const uint3 b = blockIdx;
        return dim3(b.x, b.y, b.z);
    }
    SIMT_NO_COVERAGE static dim3 thread_index() {
        const uint3 t = threadIdx;
        return dim3(t.x, t.y, t.z);
    }
    SIMT_NO_COVERAGE static dim3 dim_threads() { return blockDim; }
    SIMT_NO_COVERAGE static dim3 group_dim() { return blockDim; }
};

SIMT_NO_COVERAGE inline thread_block this_thread_block() { return thread_block(); }

// ---- grid_group: every thread of the grid (a cooperative launch's) ------------
class grid_group : public thread_group {
    friend grid_group this_grid();
    SIMT_NO_COVERAGE grid_group() : thread_group(details::grid_group_id) {}

public:
    static constexpr unsigned int _group_id = details::grid_group_id;
    // Valid only in a kernel launched with cudaLaunchCooperativeKernel; its
    // sync() elsewhere is a finding that stops the launch (a trap on a GPU).
    // True under <<<>>> too, as the H100 answered; only its sync() needs a cooperative launch.
    SIMT_NO_COVERAGE bool is_valid() const { return true; }
    SIMT_NO_COVERAGE void sync(SIMT_CG_AT) const { ::simt::grid_sync(simt_file, simt_line); }
    SIMT_NO_COVERAGE static unsigned long long num_blocks() {
        const dim3 g = gridDim;
        return 1ull * g.x * g.y * g.z;
    }
    SIMT_NO_COVERAGE static unsigned long long block_rank() {
        const dim3 g = gridDim;
        const uint3 b = blockIdx;
        return b.x + 1ull * g.x * (b.y + 1ull * g.y * b.z);
    }
    SIMT_NO_COVERAGE static unsigned long long num_threads() { return num_blocks() * details::cta::size(); }
    SIMT_NO_COVERAGE static unsigned long long size() { return num_threads(); }
    SIMT_NO_COVERAGE static unsigned long long thread_rank() { return block_rank() * details::cta::size() + details::cta::thread_rank(); }
    SIMT_NO_COVERAGE static dim3 dim_blocks() { return gridDim; }
    SIMT_NO_COVERAGE static dim3 group_dim() { return gridDim; }
    SIMT_NO_COVERAGE static dim3 block_index() {
        const uint3 b = blockIdx;
        return dim3(b.x, b.y, b.z);
    }
    SIMT_NO_COVERAGE static dim3 dim_threads() {
        const dim3 g = gridDim, d = blockDim;
        return dim3(g.x * d.x, g.y * d.y, g.z * d.z);
    }
    SIMT_NO_COVERAGE static dim3 thread_index() {
        const uint3 b = blockIdx, t = threadIdx;
        const dim3 d = blockDim;
        return dim3(b.x * d.x + t.x, b.y * d.y + t.y, b.z * d.z + t.z);
    }
};

SIMT_NO_COVERAGE inline grid_group this_grid() { return grid_group(); }

// ---- coalesced_group: lanes of one warp, by lane order --------------------------
class coalesced_group : public thread_group {
    friend struct details::access;
    friend coalesced_group coalesced_threads(const char*, int);

protected:
    SIMT_NO_COVERAGE explicit coalesced_group(unsigned mask) : thread_group(details::coalesced_group_id) {
        data_.mask = mask;
        data_.size = details::popc(mask);
    }
    // `lanes` (a mask of the warp's lanes) as ranks of this group.
    SIMT_NO_COVERAGE unsigned pack(unsigned lanes) const {
        unsigned packed = 0, rank = 0;
        for (unsigned l = 0; l < 32; ++l)
            if (data_.mask >> l & 1u) {
                if (lanes >> l & 1u) packed |= 1u << rank;
                ++rank;
            }
        return packed;
    }

public:
    static constexpr unsigned int _group_id = details::coalesced_group_id;
    SIMT_NO_COVERAGE unsigned int num_threads() const { return data_.size; }
    SIMT_NO_COVERAGE unsigned int size() const { return data_.size; }
    SIMT_NO_COVERAGE unsigned int thread_rank() const { return details::popc(data_.mask & details::lanemask_lt()); }
    SIMT_NO_COVERAGE unsigned int meta_group_rank() const { return data_.meta_rank; }
    SIMT_NO_COVERAGE unsigned int meta_group_size() const { return data_.meta_size; }
    SIMT_NO_COVERAGE void sync(SIMT_CG_AT) const { __syncwarp(data_.mask, simt_file, simt_line); }

    template <typename T, typename R = details::remove_qual<T>>
    SIMT_NO_COVERAGE R shfl(T&& elem, int srcRank, SIMT_CG_AT) const {
        const unsigned lane = srcRank == 0    ? details::nth_lane(data_.mask, 0)
                              : size() == 32 ? static_cast<unsigned>(srcRank)
                                             : details::nth_lane(data_.mask, static_cast<unsigned>(srcRank));
        return ::simt::shuffle<R>(::simt::Shuffle::Idx, data_.mask, elem, lane, 32, simt_file, simt_line);
    }
    template <typename T, typename R = details::remove_qual<T>>
    SIMT_NO_COVERAGE R shfl_down(T&& elem, unsigned int delta, SIMT_CG_AT) const {
        if (size() == 32) return ::simt::shuffle<R>(::simt::Shuffle::Down, 0xffffffffu, elem, delta, 32, simt_file, simt_line);
        unsigned lane = details::lane_apart(data_.mask, details::laneid(), static_cast<int>(delta));
        if (lane >= 32) lane = details::laneid();
        return ::simt::shuffle<R>(::simt::Shuffle::Idx, data_.mask, elem, lane, 32, simt_file, simt_line);
    }
    template <typename T, typename R = details::remove_qual<T>>
    SIMT_NO_COVERAGE R shfl_up(T&& elem, int delta, SIMT_CG_AT) const {
        if (size() == 32)
            return ::simt::shuffle<R>(::simt::Shuffle::Up, 0xffffffffu, elem, static_cast<unsigned>(delta), 32,
                                       simt_file, simt_line);
        unsigned lane = details::lane_apart(data_.mask, details::laneid(), -delta);
        if (lane >= 32) lane = details::laneid();
        return ::simt::shuffle<R>(::simt::Shuffle::Idx, data_.mask, elem, lane, 32, simt_file, simt_line);
    }
    SIMT_NO_COVERAGE int any(int predicate, SIMT_CG_AT) const { return __ballot_sync(data_.mask, predicate, simt_file, simt_line) != 0; }
    SIMT_NO_COVERAGE int all(int predicate, SIMT_CG_AT) const {
        return __ballot_sync(data_.mask, predicate, simt_file, simt_line) == data_.mask;
    }
    SIMT_NO_COVERAGE unsigned int ballot(int predicate, SIMT_CG_AT) const {
        return pack(__ballot_sync(data_.mask, predicate, simt_file, simt_line));
    }
    template <typename T>
    SIMT_NO_COVERAGE unsigned int match_any(T val, SIMT_CG_AT) const {
        static_assert(std::is_arithmetic_v<T>, "cooperative groups match values of arithmetic types");
        return pack(__match_any_sync(data_.mask, val, simt_file, simt_line));
    }
    template <typename T>
    SIMT_NO_COVERAGE unsigned int match_all(T val, int& pred, SIMT_CG_AT) const {
        static_assert(std::is_arithmetic_v<T>, "cooperative groups match values of arithmetic types");
        return pack(__match_all_sync(data_.mask, val, &pred, simt_file, simt_line));
    }
};

// The lanes of the calling warp that run this call together (an
// __activemask()): in a divergent branch, those that took it.
SIMT_NO_COVERAGE inline coalesced_group coalesced_threads(SIMT_CG_AT) { return coalesced_group(::simt::active_mask(simt_file, simt_line)); }

// ---- thread_block_tile<Size>: Size consecutive threads of the block -------------
namespace details {

template <unsigned int Size>
struct tile_ops {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "simt: thread_block_tile sizes 1, 2, 4, 8, 16 and 32 are modelled (tiles of several warps are not)");
    static constexpr unsigned int numThreads = Size;
    // The tile's lanes in its warp, and its first lane.
    SIMT_NO_COVERAGE static unsigned simt_first_lane() { return laneid() & ~(Size - 1u); }
    SIMT_NO_COVERAGE static unsigned simt_lane_mask() {
        if constexpr (Size == 32) return 0xffffffffu;
        else return ((1u << Size) - 1u) << simt_first_lane();
    }
    SIMT_NO_COVERAGE static unsigned int thread_rank() { return cta::thread_rank() & (Size - 1u); }
    static constexpr unsigned int num_threads() { return Size; }
    static constexpr unsigned int size() { return Size; }
    SIMT_NO_COVERAGE static void sync(SIMT_CG_AT) { __syncwarp(simt_lane_mask(), simt_file, simt_line); }

    template <typename T, typename R = remove_qual<T>>
    SIMT_NO_COVERAGE R shfl(T&& elem, int srcRank, SIMT_CG_AT) const {
        return ::simt::shuffle<R>(::simt::Shuffle::Idx, simt_lane_mask(), elem, static_cast<unsigned>(srcRank), Size, simt_file, simt_line);
    }
    template <typename T, typename R = remove_qual<T>>
    SIMT_NO_COVERAGE R shfl_down(T&& elem, unsigned int delta, SIMT_CG_AT) const {
        return ::simt::shuffle<R>(::simt::Shuffle::Down, simt_lane_mask(), elem, delta, Size, simt_file, simt_line);
    }
    template <typename T, typename R = remove_qual<T>>
    SIMT_NO_COVERAGE R shfl_up(T&& elem, unsigned int delta, SIMT_CG_AT) const {
        return ::simt::shuffle<R>(::simt::Shuffle::Up, simt_lane_mask(), elem, delta, Size, simt_file, simt_line);
    }
    template <typename T, typename R = remove_qual<T>>
    SIMT_NO_COVERAGE R shfl_xor(T&& elem, unsigned int laneMask, SIMT_CG_AT) const {
        return ::simt::shuffle<R>(::simt::Shuffle::Xor, simt_lane_mask(), elem, laneMask, Size, simt_file, simt_line);
    }
    SIMT_NO_COVERAGE int any(int predicate, SIMT_CG_AT) const { return __ballot_sync(simt_lane_mask(), predicate, simt_file, simt_line) != 0; }
    SIMT_NO_COVERAGE int all(int predicate, SIMT_CG_AT) const {
        return __ballot_sync(simt_lane_mask(), predicate, simt_file, simt_line) == simt_lane_mask();
    }
    SIMT_NO_COVERAGE unsigned int ballot(int predicate, SIMT_CG_AT) const {
        return __ballot_sync(simt_lane_mask(), predicate, simt_file, simt_line) >> simt_first_lane();
    }
    template <typename T>
    SIMT_NO_COVERAGE unsigned int match_any(T val, SIMT_CG_AT) const {
        static_assert(std::is_arithmetic_v<T>, "cooperative groups match values of arithmetic types");
        return __match_any_sync(simt_lane_mask(), val, simt_file, simt_line) >> simt_first_lane();
    }
    template <typename T>
    SIMT_NO_COVERAGE unsigned int match_all(T val, int& pred, SIMT_CG_AT) const {
        static_assert(std::is_arithmetic_v<T>, "cooperative groups match values of arithmetic types");
        return __match_all_sync(simt_lane_mask(), val, &pred, simt_file, simt_line) >> simt_first_lane();
    }
};

// A parent's rank and size as a tile of it needs them.
template <typename ParentT>
struct parent_of {
    SIMT_NO_COVERAGE static unsigned rank() { return ParentT::thread_rank(); }
    SIMT_NO_COVERAGE static unsigned size() { return ParentT::size(); }
};

}  // namespace details

// A tile whose parent is known by type: its place among its siblings comes
// from the parent's rank and size.
template <unsigned int Size, typename ParentT = void>
class thread_block_tile : public details::tile_ops<Size> {
public:
    thread_block_tile() = default;  // (tiled_partition<Size>(parent) makes them)
    static constexpr unsigned int _group_id = details::coalesced_group_id;
    SIMT_NO_COVERAGE static unsigned int meta_group_rank() { return details::parent_of<ParentT>::rank() / Size; }
    SIMT_NO_COVERAGE static unsigned int meta_group_size() { return (details::parent_of<ParentT>::size() + Size - 1) / Size; }
    SIMT_NO_COVERAGE operator thread_block_tile<Size, void>() const { return thread_block_tile<Size, void>(*this); }
};

// A tile as a value: a thread_group of its lanes that keeps its place.
template <unsigned int Size>
class thread_block_tile<Size, void> : public details::tile_ops<Size>, public thread_group {
    template <unsigned int, typename>
    friend class thread_block_tile;
    friend struct details::access;

public:
    static constexpr unsigned int _group_id = details::coalesced_group_id;
    template <typename ParentT>
    SIMT_NO_COVERAGE thread_block_tile(const thread_block_tile<Size, ParentT>& g) : thread_group(details::coalesced_group_id) {
        data_.mask = details::tile_ops<Size>::simt_lane_mask();
        data_.size = Size;
        data_.meta_rank = g.meta_group_rank();
        data_.meta_size = g.meta_group_size();
        data_.tiled = true;
    }
    using details::tile_ops<Size>::sync;
    using details::tile_ops<Size>::size;
    using details::tile_ops<Size>::num_threads;
    using details::tile_ops<Size>::thread_rank;
    SIMT_NO_COVERAGE unsigned int meta_group_rank() const { return data_.meta_rank; }
    SIMT_NO_COVERAGE unsigned int meta_group_size() const { return data_.meta_size; }
};

// tiled_partition<Size>(parent): the tile of the calling thread, of a thread
// block or of a larger tile.
template <unsigned int Size, typename ParentT>
SIMT_NO_COVERAGE thread_block_tile<Size, ParentT> tiled_partition(const ParentT&) {
    if constexpr (!std::is_same_v<ParentT, thread_block>)
        static_assert(Size < ParentT::size(), "Tile size bigger or equal to the parent group size");
    return thread_block_tile<Size, ParentT>();
}

// The calling thread alone, a tile of one.
SIMT_NO_COVERAGE inline thread_block_tile<1, void> this_thread() {
    return thread_block_tile<1, thread_block_tile<1, thread_block>>();
}

namespace details {
// The mask, kind and place of any group as the partitions and collectives see them.
struct access {
    SIMT_NO_COVERAGE static const group_data& data(const thread_group& g) { return g.data_; }
    SIMT_NO_COVERAGE static coalesced_group make(unsigned mask, unsigned meta_rank, unsigned meta_size, bool tiled) {
        coalesced_group g(mask);
        g.data_.meta_rank = meta_rank;
        g.data_.meta_size = meta_size;
        g.data_.tiled = tiled;
        return g;
    }
    SIMT_NO_COVERAGE static thread_group as_group(const coalesced_group& g) { return g; }
};

template <typename G>
SIMT_NO_COVERAGE unsigned mask_of(const G& g) {
    if constexpr (std::is_base_of_v<thread_group, G>) return access::data(g).mask;
    else return G::simt_lane_mask();  // a tile known by its parent's type
}
}  // namespace details

// tiled_partition(parent, n): tiles of n (a power of two up to 32) lanes,
// known at run time.
SIMT_NO_COVERAGE inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned int tilesz, SIMT_CG_AT) {
    if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0)
        ::simt::group_error("tiled_partition(g, n) with n not a power of two from 1 to 32", simt_file, simt_line);
    const details::group_data& d = details::access::data(parent);
    if (parent.size() <= tilesz) return parent;
    const unsigned rank = parent.thread_rank();
    if (d.tiled) {
        const unsigned base = rank & ~(tilesz - 1), length = d.size - base < tilesz ? d.size - base : tilesz;
        const unsigned mask = (0xffffffffu >> (32 - length)) << (details::laneid() & ~(tilesz - 1));
        return details::access::make(mask, rank / tilesz, d.size / tilesz, true);
    }
    unsigned mask = 0, taken = 0;
    int skip = static_cast<int>(rank / tilesz * tilesz);
    for (unsigned l = 0; l < 32; ++l)
        if (d.mask >> l & 1u) {
            if (skip <= 0 && taken < tilesz) {
                mask |= 1u << l;
                ++taken;
            }
            --skip;
        }
    return details::access::make(mask, rank / tilesz, (d.size + tilesz - 1) / tilesz, false);
}

SIMT_NO_COVERAGE inline thread_group tiled_partition(const thread_block&, unsigned int tilesz, SIMT_CG_AT) {
    if (tilesz == 0 || tilesz > 32 || (tilesz & (tilesz - 1)) != 0)
        ::simt::group_error("tiled_partition(g, n) with n not a power of two from 1 to 32", simt_file, simt_line);
    const unsigned rank = details::cta::thread_rank(), size = details::cta::size();
    const unsigned base = rank & ~(tilesz - 1), length = size - base < tilesz ? size - base : tilesz;
    const unsigned mask = (0xffffffffu >> (32 - length)) << (details::laneid() & ~(tilesz - 1));
    return details::access::as_group(details::access::make(mask, rank / tilesz, (size + tilesz - 1) / tilesz, true));
}

SIMT_NO_COVERAGE inline thread_group tiled_partition(const thread_group& parent, unsigned int tilesz, SIMT_CG_AT) {
    if (parent.get_type() == details::coalesced_group_id)
        return tiled_partition(static_cast<const coalesced_group&>(parent), tilesz, simt_file, simt_line);
    return tiled_partition(static_cast<const thread_block&>(parent), tilesz, simt_file, simt_line);
}

// binary_partition and labeled_partition: the lanes of a tile or coalesced
// group split by a predicate or a label.
namespace details {
template <typename G>
SIMT_NO_COVERAGE coalesced_group binary_partition(const G& g, bool pred, const char* file, int line) {
    const unsigned mask = mask_of(g), set = __ballot_sync(mask, pred, file, line);
    if (set == mask || set == 0) return access::make(mask, 0, 1, false);
    return access::make(mask & (pred ? set : ~set), pred ? 1 : 0, 2, false);
}
template <typename G, typename L>
SIMT_NO_COVERAGE coalesced_group labeled_partition(const G& g, L label, const char* file, int line) {
    const unsigned mask = mask_of(g), sub = __match_any_sync(mask, label, file, line);
    const unsigned leader = nth_lane(sub, 0);
    const unsigned leaders = __ballot_sync(mask, leader == laneid(), file, line);
    return access::make(sub, popc(leaders & ((1u << leader) - 1u)), popc(leaders), false);
}
}  // namespace details

SIMT_NO_COVERAGE inline coalesced_group binary_partition(const coalesced_group& g, bool pred, SIMT_CG_AT) {
    return details::binary_partition(g, pred, simt_file, simt_line);
}
template <unsigned int Size, typename ParentT>
SIMT_NO_COVERAGE coalesced_group binary_partition(const thread_block_tile<Size, ParentT>& g, bool pred, SIMT_CG_AT) {
    return details::binary_partition(g, pred, simt_file, simt_line);
}
template <typename L>
SIMT_NO_COVERAGE coalesced_group labeled_partition(const coalesced_group& g, L label, SIMT_CG_AT) {
    static_assert(std::is_integral_v<L> || std::is_pointer_v<L>, "labeled_partition predicate must be an integral or pointer type");
    if constexpr (std::is_same_v<L, bool>) return details::binary_partition(g, label, simt_file, simt_line);
    else if constexpr (std::is_pointer_v<L>)
        return details::labeled_partition(g, reinterpret_cast<unsigned long long>(label), simt_file, simt_line);
    else return details::labeled_partition(g, label, simt_file, simt_line);
}
template <typename L, unsigned int Size, typename ParentT>
SIMT_NO_COVERAGE coalesced_group labeled_partition(const thread_block_tile<Size, ParentT>& g, L label, SIMT_CG_AT) {
    static_assert(std::is_integral_v<L> || std::is_pointer_v<L>, "labeled_partition predicate must be an integral or pointer type");
    if constexpr (std::is_same_v<L, bool>) return details::binary_partition(g, label, simt_file, simt_line);
    else if constexpr (std::is_pointer_v<L>)
        return details::labeled_partition(g, reinterpret_cast<unsigned long long>(label), simt_file, simt_line);
    else return details::labeled_partition(g, label, simt_file, simt_line);
}

}  // namespace cooperative_groups

// thread_group's members and the free functions, which need every group
// above.
#include <cooperative_groups/details/members.h>

#undef SIMT_CG_AT
