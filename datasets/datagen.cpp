// scan-datagen: write datasets and their float64 expected outputs as libwb .raw.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "generator.hpp"
#include "manifest.hpp"
#include "raw_io.hpp"
#include "scan_spec.hpp"

namespace {

constexpr const char* kUsage = R"(usage:
  scan-datagen --dist D --n N --seed S --input FILE [--expected FILE] [SCAN]
  scan-datagen --manifest FILE --out DIR [SCAN]

Writes deterministic datasets in the libwb .raw format (element count on the
first line, one value per line) and, with --expected or --out, the expected
scan computed in float64.

  --dist D        walk1 (steps -1..1), walk4 (steps -4..4) or uniform ([-1, 1))
  --n N           number of elements (0 allowed)
  --seed S        non-negative integer
  --input FILE    where to write the input
  --expected FILE where to write the expected output
  --manifest FILE a lab's public manifest (datasets/manifest/labNN.txt)
  --out DIR       with --manifest: writes CLASS-N-SEED.input.raw and
                  CLASS-N-SEED.expected.raw for every entry into DIR (must exist)
SCAN:
  --scan inclusive|exclusive   default inclusive
  --section N     scan each N-element section independently (default 0:
                  the whole array, as lab 04)
)";

struct Options {
    datasets::Spec spec;
    bool have_dist = false, have_n = false, have_seed = false;
    datasets::ScanSpec scan;
    std::string input, expected, manifest, out;
};

[[noreturn]] void usage_error(const std::string& what) {
    std::fprintf(stderr, "scan-datagen: %s\n(see scan-datagen --help)\n", what.c_str());
    std::exit(2);
}

unsigned long long parse_count(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || text[0] == '-' || *end != '\0')
        usage_error(flag + " needs a non-negative integer, got '" + text + "'");
    return v;
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        }
        if (i + 1 >= argc) usage_error("option " + flag + " needs a value (or is unknown)");
        const std::string value = argv[++i];
        if (flag == "--dist") {
            const auto d = datasets::parse_distribution(value);
            if (!d) usage_error("unknown distribution '" + value + "' (walk1, walk4, uniform)");
            o.spec.dist = *d;
            o.have_dist = true;
        } else if (flag == "--n") {
            o.spec.n = parse_count(flag, value);
            o.have_n = true;
        } else if (flag == "--seed") {
            o.spec.seed = parse_count(flag, value);
            o.have_seed = true;
        } else if (flag == "--scan") {
            if (value == "inclusive") o.scan.kind = datasets::ScanKind::Inclusive;
            else if (value == "exclusive") o.scan.kind = datasets::ScanKind::Exclusive;
            else usage_error("--scan is inclusive or exclusive, got '" + value + "'");
        } else if (flag == "--section") {
            o.scan.section = parse_count(flag, value);
        } else if (flag == "--input") {
            o.input = value;
        } else if (flag == "--expected") {
            o.expected = value;
        } else if (flag == "--manifest") {
            o.manifest = value;
        } else if (flag == "--out") {
            o.out = value;
        } else {
            usage_error("unknown option " + flag);
        }
    }
    if (!o.manifest.empty()) {
        if (o.out.empty()) usage_error("--manifest needs --out DIR");
        if (o.have_dist || o.have_n || o.have_seed || !o.input.empty())
            usage_error("--manifest takes the datasets from the file; drop --dist/--n/--seed/--input");
    } else {
        if (!o.have_dist || !o.have_n || !o.have_seed || o.input.empty())
            usage_error("need --dist, --n, --seed and --input (or --manifest and --out)");
    }
    return o;
}

void write_dataset(const datasets::Spec& spec, const datasets::ScanSpec& scan,
                   const std::string& input, const std::string& expected) {
    const auto values = datasets::generate(spec);
    datasets::write_raw(input, values);
    if (!expected.empty()) datasets::write_raw(expected, datasets::reference_scan(values, scan));
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    try {
        if (o.manifest.empty()) {
            write_dataset(o.spec, o.scan, o.input, o.expected);
            return 0;
        }
        for (const auto& e : datasets::read_manifest(o.manifest)) {
            const std::string stem = o.out + "/" + e.cls + "-" + std::to_string(e.spec.n) + "-" +
                                     std::to_string(e.spec.seed);
            write_dataset(e.spec, o.scan, stem + ".input.raw", stem + ".expected.raw");
            std::printf("%s.input.raw  (%s)\n", stem.c_str(), datasets::describe(e.spec).c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scan-datagen: %s\n", e.what());
        return 1;
    }
    return 0;
}
