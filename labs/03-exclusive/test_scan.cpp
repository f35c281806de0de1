// Lab 03 suite: both exclusive scans on the lab's public datasets.
#include <doctest/doctest.h>

#include "harness.hpp"
#include "scan.hpp"

const char* const harness::kDefaultManifest = LAB_MANIFEST;

TEST_CASE("kogge_stone_exclusive_scan: exclusive scan of each 1024-element section") {
    harness::check_function({"kogge_stone_exclusive_scan",
                             {datasets::ScanKind::Exclusive, KS_SECTION_SIZE, KS_SECTION_SIZE},
                             [](const float* in, float* out, std::size_t n) {
                                 kogge_stone_exclusive_scan(in, out, static_cast<unsigned>(n));
                             }});
}

TEST_CASE("brent_kung_exclusive_scan: exclusive scan of each 2048-element section") {
    harness::check_function({"brent_kung_exclusive_scan",
                             {datasets::ScanKind::Exclusive, BK_SECTION_SIZE, BK_SECTION_SIZE},
                             [](const float* in, float* out, std::size_t n) {
                                 brent_kung_exclusive_scan(in, out, static_cast<unsigned>(n));
                             }});
}
