// Lab 01 API (do not edit: the tests and the grader are built against it).
#pragma once

// Elements per section; one block of KS_BLOCK_SIZE threads scans one section.
constexpr unsigned KS_SECTION_SIZE = 1024;
constexpr unsigned KS_BLOCK_SIZE = KS_SECTION_SIZE;

// Inclusive scan of every KS_SECTION_SIZE-element section of d_in, each section
// independently, into d_out. Device pointers; n may be any value (0: no-op);
// d_in is not modified.
void kogge_stone_scan(const float* d_in, float* d_out, unsigned n);
