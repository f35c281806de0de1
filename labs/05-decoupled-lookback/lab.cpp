// Binds lab 05's function to the catalog (labs/common/catalog.cpp).
#include "lab.hpp"
#include "scan.hpp"

static_assert(TILE_SIZE == 32768, "the catalog's tile size");

LAB_FALLBACK(single_pass_scan, (const float*, float*, std::size_t))

const harness::LabBinding harness::kLab = {
    LAB_ID,
    LAB_MANIFEST,
    {{"single_pass_scan", [](const float* in, float* out, std::size_t n) { single_pass_scan(in, out, n); }}}};
