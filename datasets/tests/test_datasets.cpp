// Host tests of the dataset generator, its exactness claim, the .raw format
// and the public manifests.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "generator.hpp"
#include "manifest.hpp"
#include "raw_io.hpp"
#include "scan_spec.hpp"

using namespace datasets;

namespace {

std::string g_manifest_dir;
std::string g_datagen;  // path of the scan-datagen binary

std::uint64_t fnv1a(const std::vector<float>& v) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    const auto* bytes = reinterpret_cast<const unsigned char*>(v.data());
    for (std::size_t i = 0; i < v.size() * sizeof(float); ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
    return h;
}

std::string temp_path(const std::string& name) {
    return (std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp")) + "/scan-labs-test-" + name;
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

std::string error_of(const std::string& path) {
    try {
        read_raw(path);
    } catch (const RawError& e) {
        return e.what();
    }
    return "";
}

// A tree-order float32 scan (pairwise up-sweep then down-sweep, as Brent-Kung
// sums), to show the walks are exact in an order other than the serial one.
std::vector<float> tree_scan(std::vector<float> x) {
    const std::size_t n = x.size();
    std::size_t stride = 1;
    for (; stride < n; stride *= 2)
        for (std::size_t i = 2 * stride - 1; i < n; i += 2 * stride) x[i] += x[i - stride];
    for (stride /= 2; stride > 0; stride /= 2)
        for (std::size_t i = 3 * stride - 1; i < n; i += 2 * stride) x[i] += x[i - stride];
    return x;
}

}  // namespace

TEST_CASE("the same (distribution, n, seed) gives the same bytes, on every machine") {
    for (auto dist : {Distribution::Walk1, Distribution::Walk4, Distribution::Uniform}) {
        const Spec spec{dist, 4097, 7};
        CHECK(generate(spec) == generate(spec));
    }
    // Golden hashes: generation is pure integer arithmetic plus exact
    // conversions, so these hold on any conforming platform.
    CHECK(fnv1a(generate({Distribution::Walk1, 1000, 1})) == 0xc8a5c3cfb5cdfd85ull);
    CHECK(fnv1a(generate({Distribution::Walk4, 1000, 1})) == 0x719a7acf46815f45ull);
    CHECK(fnv1a(generate({Distribution::Uniform, 1000, 1})) == 0x0d6c9f5c537e823full);
}

TEST_CASE("seeds and distributions give different data; prefixes agree across n") {
    CHECK(generate({Distribution::Walk4, 1000, 1}) != generate({Distribution::Walk4, 1000, 2}));
    CHECK(generate({Distribution::Walk1, 1000, 1}) != generate({Distribution::Walk4, 1000, 1}));
    const auto longer = generate({Distribution::Walk4, 2000, 3});
    const auto shorter = generate({Distribution::Walk4, 1000, 3});
    CHECK(std::equal(shorter.begin(), shorter.end(), longer.begin()));
    CHECK(generate({Distribution::Walk4, 0, 3}).empty());
}

TEST_CASE("values stay in each distribution's range and use all of it") {
    const std::size_t n = 100000;
    for (int max_step : {1, 4}) {
        const auto v = generate({max_step == 1 ? Distribution::Walk1 : Distribution::Walk4, n, 11});
        std::vector<std::size_t> seen(2 * max_step + 1);
        double sum = 0;
        for (float x : v) {
            REQUIRE(x == std::floor(x));
            REQUIRE(std::fabs(x) <= max_step);
            ++seen[static_cast<std::size_t>(x + max_step)];
            sum += x;
        }
        for (std::size_t count : seen) CHECK(count > n / (4 * seen.size()));
        CHECK(std::fabs(sum / n) < 0.05);  // zero-mean steps
    }
    const auto u = generate({Distribution::Uniform, n, 11});
    double lo = 1, hi = -1, sum = 0;
    for (float x : u) {
        REQUIRE(x >= -1.0f);
        REQUIRE(x < 1.0f);
        REQUIRE(std::ldexp(double{x}, 23) == std::floor(std::ldexp(double{x}, 23)));
        lo = std::min(lo, double{x});
        hi = std::max(hi, double{x});
        sum += x;
    }
    CHECK(lo < -0.999);
    CHECK(hi > 0.999);
    CHECK(std::fabs(sum / n) < 0.01);
}

TEST_CASE("exactness: every partial sum of the walks is an integer far below 2^24") {
    // Every scan algorithm adds contiguous ranges; a range sum is the
    // difference of two prefix positions, so bounding the positions by 2^20
    // bounds every intermediate by 2^21 < 2^24 (exact in float32).
    for (auto dist : {Distribution::Walk1, Distribution::Walk4}) {
        for (std::size_t n : {std::size_t{4194305}, std::size_t{1} << 26}) {
            const auto v = generate({dist, n, 5});
            std::int64_t position = 0, lo = 0, hi = 0;
            for (float x : v) {
                position += static_cast<std::int64_t>(x);
                lo = std::min(lo, position);
                hi = std::max(hi, position);
            }
            INFO(distribution_name(dist) << " n=" << n);
            CHECK(hi <= kWalkBound);
            CHECK(-lo <= kWalkBound);
            CHECK(hi - lo < (std::int64_t{1} << 24));
        }
    }
    // And two different float32 summation orders give the float64 answer.
    const auto v = generate({Distribution::Walk4, 1 << 20, 6});
    const auto expected = reference_scan(v, {ScanKind::Inclusive, 0, 0});
    const auto serial = serial_scan(v, {ScanKind::Inclusive, 0, 0});
    const auto tree = tree_scan(v);
    for (std::size_t i = 0; i < v.size(); ++i) {
        REQUIRE(double{serial[i]} == expected[i]);
        REQUIRE(double{tree[i]} == expected[i]);
    }
}

TEST_CASE("the walks' reflection keeps every position within the bound") {
    // At kWalkBound = 2^20 a walk of these sizes never gets near the bound, so
    // watch the same recipe turn back at a bound of 10.
    for (int max_step : {1, 4}) {
        const auto v = detail::reflected_walk(100000, 8, max_step, 10);
        std::int64_t position = 0, lo = 0, hi = 0;
        for (float x : v) {
            REQUIRE(std::fabs(x) <= max_step);
            position += static_cast<std::int64_t>(x);
            lo = std::min(lo, position);
            hi = std::max(hi, position);
        }
        CHECK(hi <= 10);
        CHECK(lo >= -10);
        CHECK(hi >= 10 - max_step);  // it did reach the bound and turn back
        CHECK(lo <= -10 + max_step);
    }
}

TEST_CASE("reference scans: inclusive, exclusive, per section and whole") {
    const std::vector<float> x{4, 6, 7, 1, 2, 8, 5, 2};  // PMPP exercise 9.7's array
    CHECK(reference_scan(x, {ScanKind::Inclusive, 0, 0}) == std::vector<double>{4, 10, 17, 18, 20, 28, 33, 35});
    CHECK(reference_scan(x, {ScanKind::Exclusive, 0, 0}) == std::vector<double>{0, 4, 10, 17, 18, 20, 28, 33});
    CHECK(reference_scan(x, {ScanKind::Inclusive, 4, 4}) == std::vector<double>{4, 10, 17, 18, 2, 10, 15, 17});
    CHECK(reference_scan(x, {ScanKind::Exclusive, 3, 3}) == std::vector<double>{0, 4, 10, 0, 1, 3, 0, 5});
    const std::vector<float> y{-1, 2, -3};
    CHECK(magnitude_scan(y, {ScanKind::Inclusive, 0, 0}) == std::vector<double>{1, 3, 6});
    CHECK(magnitude_scan(y, {ScanKind::Exclusive, 2, 2}) == std::vector<double>{0, 1, 0});
}

TEST_CASE(".raw round trip is bit-exact") {
    const std::string path = temp_path("roundtrip.raw");
    const auto floats = generate({Distribution::Uniform, 3000, 4});
    write_raw(path, floats);
    const auto back = read_raw(path);
    REQUIRE(back.size() == floats.size());
    for (std::size_t i = 0; i < floats.size(); ++i) REQUIRE(static_cast<float>(back[i]) == floats[i]);

    const auto doubles = reference_scan(floats, {ScanKind::Inclusive, 0, 0});
    write_raw(path, doubles);
    CHECK(read_raw(path) == doubles);

    write_raw(path, std::vector<float>{});
    CHECK(read_raw(path).empty());

    // libwb's layout: the count, then one value per line.
    write_raw(path, std::vector<float>{1.5f, -2.0f});
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text == "2\n1.5\n-2\n");
    std::remove(path.c_str());
}

TEST_CASE(".raw reader names the file, the line and the problem") {
    const std::string path = temp_path("bad.raw");
    CHECK(error_of(temp_path("does-not-exist.raw")).find("cannot open") != std::string::npos);
    write_text(path, "");
    CHECK(error_of(path).find(":1: empty file") != std::string::npos);
    write_text(path, "three\n1\n2\n3\n");
    CHECK(error_of(path).find(":1: expected the element count, got 'three'") != std::string::npos);
    write_text(path, "3\n1\n2\n");
    CHECK(error_of(path).find("header announces 3 values, file holds 2") != std::string::npos);
    write_text(path, "1\n1\n2\n");
    CHECK(error_of(path).find(":3: more values than the 1") != std::string::npos);
    write_text(path, "2\n1\nabc\n");
    CHECK(error_of(path).find(":3: not a finite number: 'abc'") != std::string::npos);
    write_text(path, "1\nnan\n");
    CHECK(error_of(path).find("not a finite number") != std::string::npos);
    write_text(path, "2\r\n1\r\n\r\n2\r\n");  // CRLF and blank lines are fine
    CHECK(read_raw(path) == std::vector<double>{1, 2});
    std::remove(path.c_str());
    CHECK_THROWS_AS(write_raw(temp_path("no/such/dir/x.raw"), std::vector<float>{1}), RawError);
}

TEST_CASE("the public manifests cover the boundary classes") {
    const std::size_t third_level = std::size_t{2048} * 2048;
    for (const char* lab : {"lab01", "lab02", "lab03", "lab04"}) {
        INFO(lab);
        const auto entries = read_manifest(g_manifest_dir + "/" + lab + ".txt");
        bool zero = false, one = false, exact = false, floats = false, large = false, level3 = false;
        for (const auto& e : entries) {
            zero = zero || e.spec.n == 0;
            one = one || e.spec.n == 1;
            exact = exact || is_exact(e.spec.dist);
            floats = floats || !is_exact(e.spec.dist);
            large = large || e.spec.n >= (std::size_t{1} << 20);
            level3 = level3 || e.spec.n > third_level;
        }
        CHECK(zero);
        CHECK(one);
        CHECK(exact);
        CHECK(floats);
        CHECK(large);
        if (std::string(lab) == "lab04") CHECK(level3);
        for (std::size_t n : {31, 32, 33, 1023, 1024, 2047, 2048}) {
            bool found = false;
            for (const auto& e : entries) found = found || e.spec.n == n;
            CHECK_MESSAGE(found, "n = " << n << " missing");
        }
    }
}

TEST_CASE("manifest parsing: classes in order, errors with line numbers") {
    const std::string path = temp_path("manifest.txt");
    write_text(path, "# comment\n\nsmall walk1 1 2   # trailing comment\nbig uniform 100 3\nsmall walk4 5 6\n");
    const auto entries = read_manifest(path);
    REQUIRE(entries.size() == 3);
    CHECK(entries[1].spec.dist == Distribution::Uniform);
    CHECK(entries[1].spec.n == 100);
    CHECK(entries[1].spec.seed == 3);
    CHECK(classes(entries) == std::vector<std::string>{"small", "big"});

    const auto error = [&](const std::string& text) -> std::string {
        write_text(path, text);
        try {
            read_manifest(path);
        } catch (const ManifestError& e) {
            return e.what();
        }
        return "";
    };
    CHECK(error("a walk1 1\n").find(":1: expected 'class distribution n seed'") != std::string::npos);
    CHECK(error("a walk1 1 2\nb gauss 1 2\n").find(":2: unknown distribution 'gauss'") != std::string::npos);
    CHECK(error("a walk1 -1 2\n").find("n is not a non-negative integer") != std::string::npos);
    CHECK(error("a walk1 1 x\n").find("seed is not a non-negative integer") != std::string::npos);
    CHECK(error("a walk1 1 2 3\n").find("expected 'class distribution n seed'") != std::string::npos);
    std::remove(path.c_str());
    CHECK_THROWS_WITH_AS(read_manifest(temp_path("none.txt")), doctest::Contains("cannot open"), ManifestError);
}

TEST_CASE("scan-datagen writes the generator's data and the float64 scan") {
    REQUIRE_MESSAGE(!g_datagen.empty(), "pass --datagen PATH");
    const std::string in = temp_path("cli-in.raw"), out = temp_path("cli-out.raw");
    const std::string cmd = g_datagen + " --dist walk4 --n 3000 --seed 9 --scan exclusive --section 1024 --input " +
                            in + " --expected " + out;
    REQUIRE(std::system(cmd.c_str()) == 0);
    const auto values = generate({Distribution::Walk4, 3000, 9});
    const auto read_in = read_raw(in);
    REQUIRE(read_in.size() == values.size());
    for (std::size_t i = 0; i < values.size(); ++i) REQUIRE(read_in[i] == double{values[i]});
    CHECK(read_raw(out) == reference_scan(values, {ScanKind::Exclusive, 1024, 1024}));

    // Manifest mode: one input and one expected file per entry.
    const std::string dir = temp_path("cli-dir");
    REQUIRE(std::system(("rm -rf " + dir + " && mkdir -p " + dir).c_str()) == 0);
    const std::string manifest = temp_path("cli-manifest.txt");
    write_text(manifest, "tiny walk1 0 1\ntiny walk4 33 2\nfloats uniform 5000 3\n");
    REQUIRE(std::system((g_datagen + " --manifest " + manifest + " --out " + dir + " > /dev/null").c_str()) == 0);
    for (const auto& e : read_manifest(manifest)) {
        const std::string stem = dir + "/" + e.cls + "-" + std::to_string(e.spec.n) + "-" + std::to_string(e.spec.seed);
        INFO(stem);
        CHECK(read_raw(stem + ".input.raw").size() == e.spec.n);
        CHECK(read_raw(stem + ".expected.raw") == reference_scan(generate(e.spec), {ScanKind::Inclusive, 0, 0}));
    }
    std::system(("rm -rf " + dir + " " + in + " " + out + " " + manifest).c_str());
}

int main(int argc, char** argv) {
    doctest::Context context;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--manifest-dir") == 0) g_manifest_dir = argv[i + 1];
        if (std::strcmp(argv[i], "--datagen") == 0) g_datagen = argv[i + 1];
    }
    context.applyCommandLine(argc, argv);
    return context.run();
}
