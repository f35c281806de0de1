// Binds lab 01's function to the catalog (labs/common/catalog.cpp).
#include "lab.hpp"
#include "scan.hpp"

static_assert(KS_SECTION_SIZE == 1024, "the catalog's section size");

LAB_FALLBACK(kogge_stone_scan, (const float*, float*, unsigned))

const harness::LabBinding harness::kLab = {
    LAB_ID,
    LAB_MANIFEST,
    {{"kogge_stone_scan",
      [](const float* in, float* out, std::size_t n) { kogge_stone_scan(in, out, static_cast<unsigned>(n)); }}}};
