// The emulator's cooperative-groups collectives, shared by
// <cooperative_groups/reduce.h> and <cooperative_groups/scan.h>: CUDA's
// operators and, for each group, the algorithm CUDA runs (so floating-point
// results round as on a GPU): a tile reduces by a butterfly of xor shuffles
// (integers of up to 4 bytes with the standard operators in one warp
// reduction, as sm_80's redux, for tiles of 16 and 32 lanes and coalesced
// groups), and scans by Kogge-Stone steps of up shuffles; a coalesced group
// of fewer than 32 lanes scans over its ranks and reduces through its scan.
#pragma once

#include <cooperative_groups.h>

#include <type_traits>

namespace cooperative_groups {

template <typename Ty>
struct plus {
    SIMT_NO_COVERAGE Ty operator()(Ty arg1, Ty arg2) const {
        if constexpr (std::is_integral_v<Ty> && std::is_signed_v<Ty> && sizeof(Ty) >= sizeof(int)) {
            using U = std::make_unsigned_t<Ty>;  // wraps, as on a GPU (not C++'s undefined overflow)
            return static_cast<Ty>(static_cast<U>(arg1) + static_cast<U>(arg2));
        } else {
            return arg1 + arg2;
        }
    }
};
template <typename Ty>
struct less {
    SIMT_NO_COVERAGE Ty operator()(Ty arg1, Ty arg2) const { return (arg2 < arg1) ? arg2 : arg1; }
};
template <typename Ty>
struct greater {
    SIMT_NO_COVERAGE Ty operator()(Ty arg1, Ty arg2) const { return (arg1 < arg2) ? arg2 : arg1; }
};
template <typename Ty>
struct bit_and {
    SIMT_NO_COVERAGE Ty operator()(Ty arg1, Ty arg2) const { return arg1 & arg2; }
};
template <typename Ty>
struct bit_or {
    SIMT_NO_COVERAGE Ty operator()(Ty arg1, Ty arg2) const { return arg1 | arg2; }
};
template <typename Ty>
struct bit_xor {
    SIMT_NO_COVERAGE Ty operator()(Ty arg1, Ty arg2) const { return arg1 ^ arg2; }
};

namespace details {

// Tiles by their size (0: not a tile); coalesced groups.
template <typename G>
struct tile_size : std::integral_constant<unsigned, 0> {};
template <unsigned int S, typename P>
struct tile_size<thread_block_tile<S, P>> : std::integral_constant<unsigned, S> {};
template <typename G>
inline constexpr bool is_coalesced = std::is_same_v<remove_qual<G>, coalesced_group>;

template <typename G>
SIMT_NO_COVERAGE constexpr void check_group() {
    static_assert(tile_size<remove_qual<G>>::value != 0 || is_coalesced<G>,
                  "This group does not exclusively represent a tile");
}

// The standard operators a warp reduction (sm_80's redux) computes, on
// integers of up to 4 bytes.
template <typename Op, typename T>
struct redux_op {
    static constexpr bool value = false;
};
#define SIMT_REDUX_OP(op, how)                                                          \
    template <typename T>                                                               \
    struct redux_op<op<T>, T> {                                                         \
        static constexpr bool value = std::is_integral_v<T> && sizeof(T) <= 4;         \
        static constexpr ::simt::Reduce reduce = ::simt::Reduce::how;                    \
    };
SIMT_REDUX_OP(cooperative_groups::plus, Add)
SIMT_REDUX_OP(cooperative_groups::less, Min)
SIMT_REDUX_OP(cooperative_groups::greater, Max)
SIMT_REDUX_OP(cooperative_groups::bit_and, And)
SIMT_REDUX_OP(cooperative_groups::bit_or, Or)
SIMT_REDUX_OP(cooperative_groups::bit_xor, Xor)
#undef SIMT_REDUX_OP

template <typename T, typename Op>
SIMT_NO_COVERAGE T redux(unsigned mask, T val, const char* file, int line) {
    using W = std::conditional_t<std::is_unsigned_v<T>, unsigned, int>;
    return static_cast<T>(::simt::reduce_at<W>(file, line, redux_op<Op, T>::reduce, mask, static_cast<W>(val)));
}

template <typename G, typename V, typename Op>
SIMT_NO_COVERAGE auto scan_contiguous(const G& g, V&& val, Op&& op, const char* file, int line) -> decltype(op(val, val)) {
    auto out = val;
    for (unsigned m = 1; m < g.size(); m <<= 1) {
        auto tmp = g.shfl_up(out, m, file, line);
        if (m <= g.thread_rank()) out = op(out, tmp);
    }
    return out;
}

// A coalesced group of fewer than 32 lanes: the same steps over its ranks,
// each reading the lane of rank - i.
template <typename V, typename Op>
SIMT_NO_COVERAGE auto scan_ranks(const coalesced_group& g, V&& val, Op&& op, const char* file, int line) -> decltype(op(val, val)) {
    using R = remove_qual<V>;
    const unsigned mask = access::data(g).mask, n = g.size(), rank = g.thread_rank();
    auto out = val;
    unsigned src = laneid();
    for (unsigned i = 1; i < n; i <<= 1) {
        if (i <= rank) src = nth_lane(mask, rank - i);
        auto tmp = ::simt::shuffle<R>(::simt::Shuffle::Idx, mask, out, src, 32, file, line);
        if (i <= rank) out = op(out, tmp);
    }
    return out;
}

template <typename G, typename V, typename Op>
SIMT_NO_COVERAGE auto scan_inclusive(const G& g, V&& val, Op&& op, const char* file, int line) -> decltype(op(val, val)) {
    if constexpr (is_coalesced<G>)
        if (g.size() != 32) return details::scan_ranks(g, val, op, file, line);
    return details::scan_contiguous(g, val, op, file, line);
}

template <typename G, typename V, typename Op>
SIMT_NO_COVERAGE auto scan_exclusive(const G& g, V&& val, Op&& op, const char* file, int line) -> decltype(op(val, val)) {
    using R = remove_qual<V>;
    auto result = details::scan_inclusive(g, val, op, file, line);
    if constexpr (std::is_same_v<remove_qual<Op>, cooperative_groups::plus<R>> && std::is_integral_v<R>) {
        return result - val;
    } else {
        auto ret = g.shfl_up(result, 1, file, line);
        if (g.thread_rank() == 0) return {};
        return ret;
    }
}

template <typename G, typename V, typename Op>
SIMT_NO_COVERAGE auto reduce_group(const G& g, V&& val, Op&& op, const char* file, int line) -> decltype(op(val, val)) {
    using R = remove_qual<V>;
    using O = remove_qual<Op>;
    constexpr unsigned size = tile_size<remove_qual<G>>::value;  // 0: a coalesced group
    if constexpr (redux_op<O, R>::value && (size == 0 || size >= 16)) {
        return redux<R, O>(mask_of(g), val, file, line);
    } else {
        if constexpr (size == 0) {
            if (g.size() != 32) {
                const auto scanned = details::scan_ranks(g, val, op, file, line);
                const unsigned mask = access::data(g).mask;
                return ::simt::shuffle<R>(::simt::Shuffle::Idx, mask, scanned, 31u - static_cast<unsigned>(__builtin_clz(mask)),
                                  32, file, line);
            }
        }
        constexpr unsigned lanes = size == 0 ? 32 : size;
        const unsigned mask = size == 0 ? 0xffffffffu : mask_of(g);
        auto out = val;
        for (unsigned m = lanes >> 1; m > 0; m >>= 1)
            out = op(out, ::simt::shuffle<R>(::simt::Shuffle::Xor, mask, out, m, static_cast<int>(lanes), file, line));
        return out;
    }
}

}  // namespace details
}  // namespace cooperative_groups
