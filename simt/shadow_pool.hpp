// A device allocation's shadow words (memcheck.cpp), taken from and given
// back to a pool by capacity. Arrays of freed allocations are reused without
// zeroing: every word they hold is older than any later launch, so stale
// (check_word). A fresh array's first touches fault page by page, and its
// words are 12 times the data's bytes: that was a tenth of a large scan's
// time. A miss grows the largest array the pool holds, so the pool holds at
// most what the program has freed, and mostly reuses it.
#pragma once

#include <cstddef>
#include <utility>

#include "memcheck.hpp"

namespace simt::detail {

class ShadowWords {
public:
    ShadowWords() = default;
    ShadowWords(ShadowWords&& o) noexcept
        : words_(std::exchange(o.words_, nullptr)), capacity_(std::exchange(o.capacity_, 0)) {}
    ShadowWords& operator=(ShadowWords&&) = delete;
    ~ShadowWords() { give_back(); }
    Word* get() const { return words_; }
    // At least `words` words, their contents stale or zero.
    void hold(std::size_t words);

private:
    void give_back();
    Word* words_ = nullptr;
    std::size_t capacity_ = 0;
};

}  // namespace simt::detail
