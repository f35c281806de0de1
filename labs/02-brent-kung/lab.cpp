// Binds lab 02's function to the catalog (labs/common/catalog.cpp).
#include "lab.hpp"
#include "scan.hpp"

static_assert(BK_SECTION_SIZE == 2048, "the catalog's section size");

LAB_FALLBACK(brent_kung_scan, (const float*, float*, unsigned))

const harness::LabBinding harness::kLab = {
    LAB_ID,
    LAB_MANIFEST,
    {{"brent_kung_scan",
      [](const float* in, float* out, std::size_t n) { brent_kung_scan(in, out, static_cast<unsigned>(n)); }}}};
