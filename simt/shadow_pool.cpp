// The pool of shadow arrays (shadow_pool.hpp).
#include "shadow_pool.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>

#include <sys/mman.h>

namespace simt::detail {
namespace {

// Arrays no allocation holds, by capacity in words.
std::multimap<std::size_t, Word*>& shadow_pool() {
    static auto* pool = new std::multimap<std::size_t, Word*>;  // never destroyed: shadows come back at exit
    return *pool;
}

// Capacities in steps of an eighth of a power of two: datasets of nearly
// one size share arrays.
std::size_t shadow_capacity(std::size_t words) {
    std::size_t step = 1;
    while (step * 16 < words) step *= 2;
    return (words + step - 1) / step * step;
}

// The pages of a new array's [p, p + bytes) mapped in one call
// (MADV_POPULATE_WRITE, Linux 5.14) rather than a fault at a time at their
// first touches, which cost a large scan a tenth of its time. Where the
// kernel lacks it the pages fault as before.
void prefault(void* p, std::size_t bytes) {
    constexpr std::uintptr_t kPage = 4096;
    const auto low = (reinterpret_cast<std::uintptr_t>(p) + kPage - 1) & ~(kPage - 1);
    const auto high = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(kPage - 1);
#ifdef MADV_POPULATE_WRITE
    if (high > low) madvise(reinterpret_cast<void*>(low), high - low, MADV_POPULATE_WRITE);
#endif
}

}  // namespace

void ShadowWords::hold(std::size_t words) {
    if (words <= capacity_ && words_ != nullptr) return;
    give_back();
    auto& pool = shadow_pool();
    const std::size_t capacity = shadow_capacity(words);
    // An array at most twice the size: a small allocation (a launch's block
    // sums) took a large dataset's array, and the next large one then missed.
    if (auto it = pool.lower_bound(words); it != pool.end() && it->first <= 2 * capacity) {
        capacity_ = it->first;
        words_ = it->second;
        pool.erase(it);
        return;
    }
    // A miss: the largest array, where it is smaller, grows into the new one
    // (realloc moves a large array's pages, mremap, without copying or
    // faulting them again: a larger dataset after a smaller one faulted its
    // whole shadow in afresh, a sixth of lab 04's three-level test).
    capacity_ = capacity;
    std::size_t kept = 0;
    Word* largest = nullptr;
    if (!pool.empty() && std::prev(pool.end())->first < capacity) {
        kept = std::prev(pool.end())->first;
        largest = std::prev(pool.end())->second;
        pool.erase(std::prev(pool.end()));
    }
    words_ = static_cast<Word*>(largest ? std::realloc(largest, capacity_ * sizeof(Word))
                                        : std::calloc(capacity_, sizeof(Word)));
    if (words_ == nullptr) {
        std::perror("simt: the memory checks' shadow of a device allocation");
        std::abort();
    }
    prefault(words_ + kept, (capacity_ - kept) * sizeof(Word));
    // realloc leaves what it adds undefined: zero, as calloc's (a stale word
    // must be one an earlier launch wrote, or zero).
    if (largest) std::memset(static_cast<void*>(words_ + kept), 0, (capacity_ - kept) * sizeof(Word));
}

void ShadowWords::give_back() {
    if (words_ != nullptr) shadow_pool().emplace(capacity_, words_);
    words_ = nullptr;
    capacity_ = 0;
}

}  // namespace simt::detail
