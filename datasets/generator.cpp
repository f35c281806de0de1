#include "generator.hpp"

#include <cmath>

namespace datasets {
namespace {

// SplitMix64 seeds xoshiro256**; both are fixed, documented integer recipes.
std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

class Xoshiro256 {
public:
    explicit Xoshiro256(std::uint64_t seed) {
        for (auto& word : s_) word = splitmix64(seed);
    }
    std::uint64_t next() {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    // Integer in [0, bound) by multiply-shift of the top 32 bits.
    std::uint32_t below(std::uint32_t bound) {
        return static_cast<std::uint32_t>(((next() >> 32) * bound) >> 32);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t s_[4];
};

void fill_walk(std::vector<float>& out, Xoshiro256& rng, int max_step, std::int64_t bound) {
    std::int64_t position = 0;
    for (float& x : out) {
        std::int64_t step = static_cast<std::int64_t>(rng.below(2 * max_step + 1)) - max_step;
        if (std::llabs(position + step) > bound) step = -step;  // reflect
        position += step;
        x = static_cast<float>(step);
    }
}

// Mix the distribution into the stream so walk1 and walk4 of one seed differ.
Xoshiro256 stream(std::uint64_t seed, Distribution dist) {
    return Xoshiro256(seed * 3 + static_cast<std::uint64_t>(dist));
}

void fill_uniform(std::vector<float>& out, Xoshiro256& rng) {
    for (float& x : out) {
        // 24 random bits -> k * 2^-23 - 1 in [-1, 1), exactly representable.
        const auto k = static_cast<std::int32_t>(rng.next() >> 40);
        x = static_cast<float>(std::ldexp(static_cast<double>(k), -23) - 1.0);
    }
}

}  // namespace

std::optional<Distribution> parse_distribution(std::string_view name) {
    if (name == "walk1") return Distribution::Walk1;
    if (name == "walk4") return Distribution::Walk4;
    if (name == "uniform") return Distribution::Uniform;
    return std::nullopt;
}

const char* distribution_name(Distribution dist) {
    switch (dist) {
        case Distribution::Walk1: return "walk1";
        case Distribution::Walk4: return "walk4";
        case Distribution::Uniform: return "uniform";
    }
    return "?";
}

bool is_exact(Distribution dist) { return dist != Distribution::Uniform; }

std::string describe(const Spec& spec) {
    return std::string(distribution_name(spec.dist)) + " n=" + std::to_string(spec.n) +
           " seed=" + std::to_string(spec.seed);
}

std::vector<float> generate(const Spec& spec) {
    switch (spec.dist) {
        case Distribution::Walk1: return detail::reflected_walk(spec.n, spec.seed, 1, kWalkBound);
        case Distribution::Walk4: return detail::reflected_walk(spec.n, spec.seed, 4, kWalkBound);
        case Distribution::Uniform: break;
    }
    std::vector<float> out(spec.n);
    Xoshiro256 rng = stream(spec.seed, spec.dist);
    fill_uniform(out, rng);
    return out;
}

namespace detail {

std::vector<float> reflected_walk(std::size_t n, std::uint64_t seed, int max_step, std::int64_t bound) {
    std::vector<float> out(n);
    Xoshiro256 rng = stream(seed, max_step == 1 ? Distribution::Walk1 : Distribution::Walk4);
    fill_walk(out, rng, max_step, bound);
    return out;
}

}  // namespace detail

}  // namespace datasets
