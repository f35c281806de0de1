#include "init_bits.hpp"

#include <cstdlib>
#include <new>

namespace simt::detail {

InitBits::InitBits(std::size_t bytes)
    : bits_(static_cast<unsigned char*>(std::calloc(bytes / 8 + 1, 1))), bytes_(bytes) {
    if (bits_ == nullptr) throw std::bad_alloc();
}

InitBits::~InitBits() { std::free(bits_); }

void InitBits::mark(std::size_t offset, std::size_t n) {
    std::size_t i = offset, end = offset + n < bytes_ ? offset + n : bytes_;
    for (; i < end && (i & 7) != 0; ++i)
        if (!bit(i)) {
            bits_[i >> 3] = static_cast<unsigned char>(bits_[i >> 3] | 1u << (i & 7));
            ++written_;
        }
    for (; i + 8 <= end; i += 8) {  // whole bytes of bits
        written_ += 8 - static_cast<std::size_t>(__builtin_popcount(bits_[i >> 3]));
        bits_[i >> 3] = 0xff;
    }
    for (; i < end; ++i)
        if (!bit(i)) {
            bits_[i >> 3] = static_cast<unsigned char>(bits_[i >> 3] | 1u << (i & 7));
            ++written_;
        }
}

std::pair<std::size_t, std::size_t> InitBits::unwritten(std::size_t offset, std::size_t n) const {
    std::size_t first = offset + n, last = offset + n;
    for (std::size_t i = offset; i < offset + n && i < bytes_; ++i)
        if (!bit(i)) {
            if (first == offset + n) first = i;
            last = i;
        }
    return {first, last};
}

}  // namespace simt::detail
