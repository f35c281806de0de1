// Binds lab 03's functions to the catalog (labs/common/catalog.cpp).
#include "lab.hpp"
#include "scan.hpp"

static_assert(KS_SECTION_SIZE == 1024 && BK_SECTION_SIZE == 2048, "the catalog's section sizes");

LAB_FALLBACK(kogge_stone_exclusive_scan, (const float*, float*, unsigned))
LAB_FALLBACK(brent_kung_exclusive_scan, (const float*, float*, unsigned))

const harness::LabBinding harness::kLab = {
    LAB_ID,
    LAB_MANIFEST,
    {{"kogge_stone_exclusive_scan",
      [](const float* in, float* out, std::size_t n) { kogge_stone_exclusive_scan(in, out, static_cast<unsigned>(n)); }},
     {"brent_kung_exclusive_scan",
      [](const float* in, float* out, std::size_t n) { brent_kung_exclusive_scan(in, out, static_cast<unsigned>(n)); }}}};
