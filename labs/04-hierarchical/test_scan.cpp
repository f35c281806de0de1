// Lab 04 suite: hierarchical_scan on the lab's public datasets; the harness
// also checks that every device temporary is freed.
#include <doctest/doctest.h>

#include "harness.hpp"
#include "scan.hpp"

const char* const harness::kDefaultManifest = LAB_MANIFEST;

TEST_CASE("hierarchical_scan: inclusive scan of the whole array") {
    harness::check_function({"hierarchical_scan",
                             {datasets::ScanKind::Inclusive, 0, SECTION_SIZE},
                             [](const float* in, float* out, std::size_t n) { hierarchical_scan(in, out, n); }});
}
