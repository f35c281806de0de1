// Which bytes of a device allocation something has written (the state of
// compute-sanitizer's initcheck): a bit per byte, calloc'd so a large
// allocation's untouched pages are never touched, and a count of the bits
// set, so that a buffer written whole (the harness's, uploaded before the
// lab runs) costs each access one compare. cudaMemcpy and cudaMemset into
// it and a kernel's stores and atomics set bits; a kernel's load (or
// atomic) of a byte whose bit is clear is an uninitialised read.
#pragma once

#include <cstddef>
#include <utility>

namespace simt::detail {

class InitBits {
public:
    explicit InitBits(std::size_t bytes);
    ~InitBits();
    InitBits(const InitBits&) = delete;
    InitBits& operator=(const InitBits&) = delete;
    bool all() const { return written_ == bytes_; }
    // Whether the aligned word at `offset` (a multiple of 4) is written whole.
    bool word(std::size_t offset) const { return (bits_[offset >> 3] >> (offset & 4) & 0xfu) == 0xfu; }
    void mark_word(std::size_t offset) {
        unsigned char& b = bits_[offset >> 3];
        const unsigned m = 0xfu << (offset & 4);
        if ((b & m) != m) {
            written_ += 4 - static_cast<std::size_t>(__builtin_popcount(b & m));
            b = static_cast<unsigned char>(b | m);
        }
    }
    void mark(std::size_t offset, std::size_t n);
    // The first and last byte of [offset, offset + n) nothing wrote; first
    // is n + offset where every byte was written.
    std::pair<std::size_t, std::size_t> unwritten(std::size_t offset, std::size_t n) const;

private:
    bool bit(std::size_t i) const { return bits_[i >> 3] >> (i & 7) & 1u; }
    unsigned char* bits_;
    std::size_t bytes_, written_ = 0;
};

}  // namespace simt::detail
