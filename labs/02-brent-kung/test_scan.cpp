// Lab 02 suite: brent_kung_scan on the lab's public datasets.
#include <doctest/doctest.h>

#include "harness.hpp"
#include "scan.hpp"

const char* const harness::kDefaultManifest = LAB_MANIFEST;

TEST_CASE("brent_kung_scan: inclusive scan of each 2048-element section") {
    harness::check_function({"brent_kung_scan",
                             {datasets::ScanKind::Inclusive, BK_SECTION_SIZE, BK_SECTION_SIZE},
                             [](const float* in, float* out, std::size_t n) {
                                 brent_kung_scan(in, out, static_cast<unsigned>(n));
                             }});
}
