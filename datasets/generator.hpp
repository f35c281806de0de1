// Deterministic dataset generation: a dataset is (distribution, n, seed), and the
// same triple gives the same floats on every machine (own PRNG, no <random>
// distributions, whose output is implementation-defined).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace datasets {

enum class Distribution {
    Walk1,    // integer steps in {-1, 0, 1}
    Walk4,    // integer steps in [-4, 4]
    Uniform,  // floats uniform in [-1, 1), multiples of 2^-23
};

// Walks are reflected at +-kWalkBound, so every prefix position lies in
// [-kWalkBound, kWalkBound] and every sum of a contiguous range in
// [-2 kWalkBound, 2 kWalkBound]: integers far below 2^24, exact in float32.
// Every scan algorithm only ever adds contiguous ranges, so any of them is
// bit-exact on these datasets.
constexpr std::int64_t kWalkBound = std::int64_t{1} << 20;

struct Spec {
    Distribution dist = Distribution::Walk4;
    std::size_t n = 0;
    std::uint64_t seed = 0;
};

std::optional<Distribution> parse_distribution(std::string_view name);
const char* distribution_name(Distribution dist);
// True for the integer walks, which demand exact equality.
bool is_exact(Distribution dist);
// "walk4 n=1025 seed=9"
std::string describe(const Spec& spec);

std::vector<float> generate(const Spec& spec);

namespace detail {
// The walks' recipe with its bound as a parameter, so tests can watch the
// reflection work on a small bound.
std::vector<float> reflected_walk(std::size_t n, std::uint64_t seed, int max_step, std::int64_t bound);
}  // namespace detail

}  // namespace datasets
