// The pool of shadow arrays (shadow_pool.hpp).
#include "shadow_pool.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>

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

}  // namespace

void ShadowWords::hold(std::size_t words) {
    if (words <= capacity_ && words_ != nullptr) return;
    give_back();
    auto& pool = shadow_pool();
    if (auto it = pool.lower_bound(words); it != pool.end()) {
        capacity_ = it->first;
        words_ = it->second;
        pool.erase(it);
        return;
    }
    for (const auto& [capacity, array] : pool) std::free(array);
    pool.clear();
    capacity_ = shadow_capacity(words);
    words_ = static_cast<Word*>(std::calloc(capacity_, sizeof(Word)));
    if (words_ == nullptr) {
        std::perror("simt: the memory checks' shadow of a device allocation");
        std::abort();
    }
}

void ShadowWords::give_back() {
    if (words_ != nullptr) shadow_pool().emplace(capacity_, words_);
    words_ = nullptr;
    capacity_ = 0;
}

}  // namespace simt::detail
