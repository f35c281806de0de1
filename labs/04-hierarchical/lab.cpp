// Binds lab 04's function to the catalog (labs/common/catalog.cpp).
#include "lab.hpp"
#include "scan.hpp"

static_assert(SECTION_SIZE == 2048, "the catalog's section size");

LAB_FALLBACK(hierarchical_scan, (const float*, float*, std::size_t))

const harness::LabBinding harness::kLab = {
    LAB_ID,
    LAB_MANIFEST,
    {{"hierarchical_scan",
      [](const float* in, float* out, std::size_t n) { hierarchical_scan(in, out, n); }}}};
