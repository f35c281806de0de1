// Lab 01 suite: kogge_stone_scan on the lab's public datasets.
#include <doctest/doctest.h>

#include "harness.hpp"
#include "scan.hpp"

const char* const harness::kDefaultManifest = LAB_MANIFEST;

TEST_CASE("kogge_stone_scan: inclusive scan of each 1024-element section") {
    harness::check_function({"kogge_stone_scan",
                             {datasets::ScanKind::Inclusive, KS_SECTION_SIZE, KS_SECTION_SIZE},
                             [](const float* in, float* out, std::size_t n) {
                                 kogge_stone_scan(in, out, static_cast<unsigned>(n));
                             }});
}
