// Lab 03 API (do not edit: the tests and the grader are built against it).
#pragma once

// Kogge-Stone: one block of KS_BLOCK_SIZE threads per KS_SECTION_SIZE elements.
constexpr unsigned KS_SECTION_SIZE = 1024;
constexpr unsigned KS_BLOCK_SIZE = KS_SECTION_SIZE;
// Brent-Kung: one block of BK_BLOCK_SIZE threads per BK_SECTION_SIZE elements.
constexpr unsigned BK_SECTION_SIZE = 2048;
constexpr unsigned BK_BLOCK_SIZE = BK_SECTION_SIZE / 2;

// Exclusive scans of every section independently: out[i] is the sum of the
// elements of i's section before i, so every section starts with 0.
// Device pointers; n may be any value (0: no-op); d_in is not modified.
void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n);
void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n);
