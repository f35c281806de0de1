// The pool of shadow arrays (shadow_pool.hpp): a freed array is reused, not
// stolen by a much smaller allocation, and grown into a larger one with its
// added words zero (a word must be one an earlier launch wrote, or zero).
#include <cstring>

#include <doctest/doctest.h>

#include "shadow_pool.hpp"

using simt::detail::ShadowWords;
using simt::detail::Word;

namespace {
// A word as an earlier launch leaves it: every byte set.
void dirty(Word* words, std::size_t n) { std::memset(static_cast<void*>(words), 0x5a, n * sizeof(Word)); }
bool zero(const Word* words, std::size_t from, std::size_t to) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(words);
    for (std::size_t i = from * sizeof(Word); i < to * sizeof(Word); ++i)
        if (bytes[i] != 0) return false;
    return true;
}
}  // namespace

TEST_CASE("a freed shadow is reused for the same size, and a small one does not take it") {
    Word* first = nullptr;
    {
        ShadowWords a;
        a.hold(100000);
        first = a.get();
        dirty(first, 100000);
    }
    ShadowWords small;
    small.hold(1000);  // a fresh small array: the large one stays for a large allocation
    CHECK(small.get() != first);
    ShadowWords again;
    again.hold(100000);
    CHECK(again.get() == first);
}

TEST_CASE("a larger allocation grows the largest freed shadow; the words it adds are zero") {
    std::size_t before = 0;
    {
        ShadowWords a;
        a.hold(200000);
        before = 200000;
        dirty(a.get(), before);
    }
    ShadowWords b;
    b.hold(3000000);
    // The kept words are stale (an earlier launch's, every byte 0x5a here); past them, zero.
    const auto* bytes = reinterpret_cast<const unsigned char*>(b.get());
    CHECK(bytes[0] == 0x5a);
    std::size_t kept = before;
    while (bytes[kept * sizeof(Word)] == 0x5a) ++kept;  // to the end of the pooled array's capacity
    CHECK(kept >= before);
    CHECK(zero(b.get(), kept, 3000000));
}
