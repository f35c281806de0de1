#include "scan_spec.hpp"

#include <cmath>

namespace datasets {
namespace {

// One loop for every flavour: accumulate in T over each section, writing the
// running value before (exclusive) or after (inclusive) adding element i.
template <typename T, typename Term>
std::vector<T> sectioned_scan(const std::vector<float>& in, const ScanSpec& spec, Term term) {
    std::vector<T> out(in.size());
    T running = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (spec.section != 0 && i % spec.section == 0) running = 0;
        if (spec.kind == ScanKind::Exclusive) {
            out[i] = running;
            running += term(in[i]);
        } else {
            running += term(in[i]);
            out[i] = running;
        }
    }
    return out;
}

}  // namespace

std::string describe(const ScanSpec& spec) {
    std::string s = spec.kind == ScanKind::Inclusive ? "inclusive" : "exclusive";
    if (spec.section == 0) return s + " scan of the whole array";
    return s + " scan of each " + std::to_string(spec.section) + "-element section";
}

std::vector<double> reference_scan(const std::vector<float>& in, const ScanSpec& spec) {
    return sectioned_scan<double>(in, spec, [](float x) { return double{x}; });
}

std::vector<double> magnitude_scan(const std::vector<float>& in, const ScanSpec& spec) {
    return sectioned_scan<double>(in, spec, [](float x) { return std::fabs(double{x}); });
}

std::vector<float> serial_scan(const std::vector<float>& in, const ScanSpec& spec) {
    return sectioned_scan<float>(in, spec, [](float x) { return x; });
}

}  // namespace datasets
