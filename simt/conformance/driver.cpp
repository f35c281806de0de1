// simt-conformance (the emulator's build) and simt-conformance-cuda (nvcc's):
// runs the differential suite's cases (conformance.hpp) and
//   --record DIR    writes each family's results to DIR/FAMILY.txt (on a GPU)
//   --expect DIR    compares them with DIR/FAMILY.txt, the GPU's record
//   --family NAME   only that family's cases
//   --list          the cases and the constructs each exercises
//   --readme FILE   checks that FILE's table of what the emulator runs (between
//                   <!-- conformance --> and <!-- /conformance -->) names
//                   every construct the cases exercise, and no other
// Prints a line per case that differs and a summary; exits 1 if any case
// differs, is missing or failed to run, 2 on bad usage.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "conformance.hpp"

#ifdef CONFORMANCE_EMULATOR
#include <simt/runtime.hpp>
#endif

namespace conformance {

namespace {

std::vector<Case>& registry() {
    static std::vector<Case> all;
    return all;
}

// A fixed sequence (SplitMix64), the same on every machine.
std::uint64_t next(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

}  // namespace

// A case file that uses __CUDA_ARCH__ is compiled twice on the emulator (its
// host pass, then its device pass: simt/rewrite.hpp), so its cases register
// twice; the first, the host pass's, is the case. The family: the file's name
// up to its first dot (cases/FAMILY.cu, or a part, cases/FAMILY.PART.cu).
int add(const char* file, const char* name, const char* constructs, void (*run)(Results&)) {
    std::string family = file;
    family = family.substr(family.find_last_of('/') + 1);
    family = family.substr(0, family.find('.'));
    for (const Case& c : registry())
        if (c.family == family && c.name == name) return 0;
    registry().push_back({family, name, constructs, run});
    return 0;
}

const std::vector<Case>& cases() { return registry(); }

void Results::require(cudaError_t e, const char* call) {
    if (e != cudaSuccess) throw Failed{std::string(call) + ": " + cudaGetErrorName(e)};
}

std::vector<unsigned> u32_inputs() {
    std::vector<unsigned> v = {0u, 1u, 2u, 3u, 5u, 7u, 0x10u, 0xffu, 0x100u, 0x7fffu, 0x8000u, 0xffffu, 0x10000u,
                               0x12345678u, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 0xaaaaaaaau,
                               0x55555555u, 0xf0f0f0f0u, 0x0f0f0f0fu, 0xdeadbeefu};
    for (unsigned s = 0; s < 32; ++s) v.push_back(1u << s);
    std::uint64_t state = 1;
    while (v.size() < 256) {
        const std::uint64_t r = next(state);
        v.push_back(static_cast<unsigned>(r >> (r & 31)));  // small and large magnitudes
    }
    return v;
}

std::vector<unsigned long long> u64_inputs() {
    std::vector<unsigned long long> v = {0ull, 1ull, 2ull, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull,
                                         0x8000000000000000ull, 0xffffffffffffffffull, 0x0123456789abcdefull};
    for (unsigned s = 0; s < 64; s += 3) v.push_back(1ull << s);
    std::uint64_t state = 2;
    while (v.size() < 256) {
        const std::uint64_t r = next(state);
        v.push_back(r >> (r & 63));
    }
    return v;
}

std::vector<int> i32_inputs() {
    std::vector<int> v;
    for (unsigned u : u32_inputs()) v.push_back(static_cast<int>(u));
    for (int x : {-1, -2, -3, -100, -65536, 100, 65536}) v.push_back(x);
    return v;
}

std::vector<float> f32_inputs() {
    const float inf = INFINITY;
    std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, 3.0f, 10.0f, 0.1f, -0.1f,
                            1e-3f, 1e3f, 1e10f, -1e10f, 1e30f, -1e30f, 1e-30f, 3.4028235e38f, -3.4028235e38f,
                            1.17549435e-38f, 1e-40f, -1e-40f, 1.4e-45f, inf, -inf, NAN, 3.14159265f, 1.57079633f,
                            -3.14159265f, 6.28318531f, 2.71828183f, 0.69314718f, 100.0f, 88.0f, 89.0f, -87.0f,
                            -104.0f, 16777216.0f, 16777217.0f, 8388607.5f, 0.999999f, 1.000001f, 0.25f, 0.75f, 1.5f,
                            2.5f, -2.5f, 4.5f, 1e5f};
    std::uint64_t state = 3;
    while (v.size() < 200) {  // uniform in [-10, 10)
        v.push_back(static_cast<float>(static_cast<double>(next(state) >> 11) * 0x1p-53 * 20.0 - 10.0));
    }
    while (v.size() < 256) {  // wide magnitudes
        const std::uint64_t r = next(state);
        v.push_back(std::ldexp(static_cast<float>(r >> 40) * 0x1p-24f, static_cast<int>(r % 80) - 40) *
                    ((r >> 20) & 1 ? -1.0f : 1.0f));
    }
    return v;
}

std::vector<double> f64_inputs() {
    const double inf = INFINITY;
    std::vector<double> v = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 10.0, 0.1, -0.1, 1e-3, 1e3, 1e10, -1e10,
                             1e100, -1e100, 1e-100, 1.7976931348623157e308, 2.2250738585072014e-308, 1e-310, 5e-324,
                             inf, -inf, NAN, 3.141592653589793, 1.5707963267948966, -3.141592653589793,
                             2.718281828459045, 0.6931471805599453, 700.0, 710.0, -745.0, 9007199254740992.0, 1.5,
                             2.5, -2.5, 0.999999999, 1.000000001, 1e5};
    std::uint64_t state = 4;
    while (v.size() < 200) v.push_back(static_cast<double>(next(state) >> 11) * 0x1p-53 * 20.0 - 10.0);
    while (v.size() < 256) {
        const std::uint64_t r = next(state);
        v.push_back(std::ldexp(static_cast<double>(r >> 11) * 0x1p-53, static_cast<int>(r % 200) - 100) *
                    ((r >> 5) & 1 ? -1.0 : 1.0));
    }
    return v;
}

}  // namespace conformance

namespace {

using conformance::How;
using conformance::Values;

const char* how_name(How h) { return h == How::Exact ? "exact" : h == How::Ulps ? "ulps" : "abs"; }

struct Ran {
    const conformance::Case* c;
    conformance::Results r;
};

// ---- the record's format: one file per family, a line per array ----------
//   case NAME
//   values<TAB>LABEL<TAB>TYPE<TAB>HOW<TAB>TOLERANCE<TAB>HEX,HEX,...
//   failed<TAB>WHY
struct Recorded {
    std::vector<Values> values;
    std::string problem;
};

std::string hex(std::uint64_t b) {
    char s[20];
    std::snprintf(s, sizeof s, "%llx", static_cast<unsigned long long>(b));
    return s;
}

std::string record_text(const std::string& family, const std::vector<Ran>& ran, const std::string& device,
                        const std::string& command) {
    std::string out = "# The differential suite's family " + family + " (simt/conformance/cases/" + family +
                      ".cu) as " + device + " computed it.\n# Recorded by: " + command + "\n";
    for (const Ran& x : ran) {
        if (x.c->family != family) continue;
        out += "case " + x.c->name + "\n";
        if (!x.r.problem.empty()) out += "failed\t" + x.r.problem + "\n";
        for (const Values& v : x.r.values) {
            char tol[32];
            std::snprintf(tol, sizeof tol, "%.17g", v.tolerance);
            out += "values\t" + v.label + "\t" + v.type + "\t" + how_name(v.how) + "\t" + tol + "\t";
            for (std::size_t i = 0; i < v.bits.size(); ++i) out += (i ? "," : "") + hex(v.bits[i]);
            out += "\n";
        }
    }
    return out;
}

std::map<std::string, Recorded> read_record(const std::string& path, bool* found) {
    std::map<std::string, Recorded> out;
    std::ifstream in(path);
    *found = static_cast<bool>(in);
    std::string line, current;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (line.rfind("case ", 0) == 0) {
            current = line.substr(5);
            out[current];
            continue;
        }
        std::vector<std::string> f;
        for (std::size_t at = 0;;) {
            const std::size_t tab = line.find('\t', at);
            f.push_back(line.substr(at, tab - at));
            if (tab == std::string::npos) break;
            at = tab + 1;
        }
        if (f[0] == "failed" && f.size() >= 2) out[current].problem = f[1];
        if (f[0] != "values" || f.size() != 6) continue;
        Values v{f[1], f[2], f[3] == "exact" ? How::Exact : f[3] == "ulps" ? How::Ulps : How::Absolute,
                 std::strtod(f[4].c_str(), nullptr), {}};
        for (std::stringstream s(f[5]); std::getline(s, line, ',');)
            if (!line.empty()) v.bits.push_back(std::strtoull(line.c_str(), nullptr, 16));
        out[current].values.push_back(std::move(v));
    }
    return out;
}

// ---- comparing ---------------------------------------------------------------

double as_double(const std::string& type, std::uint64_t b) {
    if (type == "f32") {
        float f;
        const auto u = static_cast<std::uint32_t>(b);
        std::memcpy(&f, &u, sizeof f);
        return f;
    }
    if (type == "f64") {
        double d;
        std::memcpy(&d, &b, sizeof d);
        return d;
    }
    if (type[0] == 'i') {
        const int shift = 64 - std::atoi(type.c_str() + 1);
        return static_cast<double>(static_cast<std::int64_t>(b << shift) >> shift);
    }
    return static_cast<double>(b);
}

// Floating-point bits as an integer that orders like the values.
std::int64_t ordered(const std::string& type, std::uint64_t b) {
    if (type == "f32") {
        const auto i = static_cast<std::int32_t>(static_cast<std::uint32_t>(b));
        return i < 0 ? static_cast<std::int64_t>(INT32_MIN) - i : i;
    }
    const auto i = static_cast<std::int64_t>(b);
    return i < 0 ? INT64_MIN - i : i;
}

// Whether the emulator's `got` matches the GPU's `want` under v's rule; why not in *why.
bool same(const Values& v, std::uint64_t want, std::uint64_t got, std::string* why) {
    const bool fp = v.type == "f32" || v.type == "f64";
    if (fp) {
        const double w = as_double(v.type, want), g = as_double(v.type, got);
        if (std::isnan(w) || std::isnan(g)) return std::isnan(w) && std::isnan(g);  // any NaN is NaN
        if (v.how == How::Ulps) {
            const std::int64_t d = std::llabs(ordered(v.type, want) - ordered(v.type, got));
            *why = std::to_string(d) + " ulps apart";
            return static_cast<double>(d) <= v.tolerance;
        }
        if (v.how == How::Absolute) {
            *why = "off by " + std::to_string(std::fabs(w - g));
            return w == g || std::fabs(w - g) <= v.tolerance;
        }
    }
    return want == got;
}

std::string show(const std::string& type, std::uint64_t b) {
    char s[64];
    std::snprintf(s, sizeof s, "%.9g", as_double(type, b));
    return "0x" + hex(b) + " (" + s + ")";
}

// What ran the cases: the emulator, or (nvcc's build checking a GPU against
// the committed records) this GPU.
#ifdef CONFORMANCE_EMULATOR
constexpr const char* kThisRun = "the emulator";
#else
constexpr const char* kThisRun = "this GPU";
#endif

// The differences of one case against its record, a line each (at most a few per array).
std::vector<std::string> compare(const conformance::Results& mine, const Recorded& want) {
    std::vector<std::string> out;
    if (!want.problem.empty()) out.push_back("the recorded GPU could not run it: " + want.problem);
    if (!mine.problem.empty()) out.push_back(std::string(kThisRun) + " could not run it: " + mine.problem);
    if (!out.empty()) return out;
    if (mine.values.size() != want.values.size())
        return {std::to_string(mine.values.size()) + " arrays against the record's " + std::to_string(want.values.size()) +
                " (recorded from another version of the case?)"};
    for (std::size_t a = 0; a < mine.values.size(); ++a) {
        const Values& m = mine.values[a];
        const Values& w = want.values[a];
        if (m.label != w.label || m.type != w.type || m.bits.size() != w.bits.size()) {
            out.push_back(m.label + " (" + m.type + ", " + std::to_string(m.bits.size()) + ") against the record's " +
                          w.label + " (" + w.type + ", " + std::to_string(w.bits.size()) + ")");
            continue;
        }
        unsigned shown = 0, differ = 0;
        for (std::size_t i = 0; i < m.bits.size(); ++i) {
            std::string why;
            if (same(w, w.bits[i], m.bits[i], &why)) continue;
            ++differ;
            if (shown++ < 3)
                out.push_back(m.label + "[" + std::to_string(i) + "]: " + kThisRun + " " + show(m.type, m.bits[i]) +
                              ", the record " + show(w.type, w.bits[i]) + (why.empty() ? "" : ", " + why) +
                              (w.how == How::Exact ? " (exact)" : " (bound " + std::to_string(w.tolerance) + ")"));
        }
        if (differ > shown) out.push_back(m.label + ": " + std::to_string(differ - shown) + " more differ");
    }
    return out;
}

// The constructs a README table names: every `backticked` word between the markers.
std::set<std::string> readme_constructs(const std::string& path, bool* found) {
    std::ifstream in(path);
    *found = false;
    std::set<std::string> out;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (line.find("<!-- conformance -->") != std::string::npos) {
            inside = *found = true;
            continue;
        }
        if (line.find("<!-- /conformance -->") != std::string::npos) inside = false;
        if (!inside) continue;
        for (std::size_t a = line.find('`'); a != std::string::npos; a = line.find('`', a + 1)) {
            const std::size_t b = line.find('`', a + 1);
            if (b == std::string::npos) break;
            out.insert(line.substr(a + 1, b - a - 1));
            a = b;
        }
    }
    return out;
}

std::set<std::string> suite_constructs() {
    std::set<std::string> out;
    for (const auto& c : conformance::cases()) {
        std::istringstream words(c.constructs);
        for (std::string w; words >> w;) out.insert(w);
    }
    return out;
}

std::string device_name() {
#ifdef CONFORMANCE_EMULATOR
    return "the CPU emulator";
#else
    cudaDeviceProp p{};
    int runtime = 0, driver = 0;
    cudaGetDeviceProperties(&p, 0);
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    return std::string(p.name) + " (CUDA runtime " + std::to_string(runtime) + ", driver " + std::to_string(driver) + ")";
#endif
}

int usage(const std::string& why) {
    std::fprintf(stderr,
                 "%s\nusage: simt-conformance [--family NAME] (--record DIR | --expect DIR | --list | --readme FILE)\n",
                 why.c_str());
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string record, expect, family, readme, command;
    bool list = false;
    for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&](std::string& into) {
            if (i + 1 >= argc) return false;
            into = argv[++i];
            return true;
        };
        if (a == "--record" ? !value(record) : a == "--expect" ? !value(expect) : a == "--family" ? !value(family)
            : a == "--readme" ? !value(readme) : a == "--list" ? !(list = true) : true)
            return usage(a == "--record" || a == "--expect" || a == "--family" || a == "--readme"
                             ? a + " needs a value"
                             : "unknown option '" + a + "'");
    }
    std::vector<const conformance::Case*> chosen;
    for (const auto& c : conformance::cases())
        if (family.empty() || c.family == family) chosen.push_back(&c);
    std::stable_sort(chosen.begin(), chosen.end(), [](auto* a, auto* b) { return a->family < b->family; });
    if (chosen.empty()) return usage("no case in family '" + family + "'");
    std::set<std::string> families;
    for (const auto* c : chosen) families.insert(c->family);

    if (list) {
        for (const auto* c : chosen) std::printf("%s/%s: %s\n", c->family.c_str(), c->name.c_str(), c->constructs.c_str());
        return 0;
    }
    if (!readme.empty()) {
        bool found = false;
        const std::set<std::string> table = readme_constructs(readme, &found), suite = suite_constructs();
        if (!found) return usage(readme + " has no <!-- conformance --> table");
        unsigned problems = 0;
        for (const auto& c : suite)
            if (!table.count(c)) std::printf("the suite exercises `%s`, which %s's table does not name\n", c.c_str(), readme.c_str()), ++problems;
        for (const auto& c : table)
            if (!suite.count(c)) std::printf("%s's table names `%s`, which no case exercises\n", readme.c_str(), c.c_str()), ++problems;
        std::printf("conformance table: %zu constructs in %s, %zu in the suite: %s\n", table.size(), readme.c_str(),
                    suite.size(), problems ? "they differ" : "the same");
        return problems ? 1 : 0;
    }
    if (record.empty() == expect.empty()) return usage("give --record DIR or --expect DIR");

    std::vector<Ran> ran;
    for (const auto* c : chosen) {
        Ran x{c, {}};
        try {
            c->run(x.r);
            if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
                x.r.problem = std::string("a kernel failed: ") + cudaGetErrorName(e);
        } catch (const conformance::Failed& f) {
            x.r.problem = f.what;
        }
#ifdef CONFORMANCE_EMULATOR
        // The suite's kernels are correct CUDA: a finding of the emulator's checks is a defect.
        for (const auto& f : simt::take_findings()) x.r.problem += (x.r.problem.empty() ? "" : "; ") + simt::format(f);
#endif
        ran.push_back(std::move(x));
    }
    std::size_t constructs = 0;
    {
        std::set<std::string> seen;
        for (const auto* c : chosen) {
            std::istringstream words(c->constructs);
            for (std::string w; words >> w;) seen.insert(w);
        }
        constructs = seen.size();
    }

    if (!record.empty()) {
        const std::string device = device_name();
        std::error_code made;
        std::filesystem::create_directories(record, made);
        unsigned failed = 0;
        for (const auto& f : families) {
            std::ofstream out(record + "/" + f + ".txt");
            out << record_text(f, ran, device, command);
            if (!out) return usage("cannot write " + record + "/" + f + ".txt");
        }
        for (const Ran& x : ran)
            if (!x.r.problem.empty()) std::printf("failed: %s/%s: %s\n", x.c->family.c_str(), x.c->name.c_str(), x.r.problem.c_str()), ++failed;
        std::printf("conformance on %s: %zu families, %zu cases, %zu constructs recorded in %s; %u failed to run\n",
                    device.c_str(), families.size(), ran.size(), constructs, record.c_str(), failed);
        return failed ? 1 : 0;
    }

    unsigned equal = 0, differ = 0, missing = 0;
    std::map<std::string, std::map<std::string, Recorded>> records;
    for (const auto& f : families) {
        bool found = false;
        records[f] = read_record(expect + "/" + f + ".txt", &found);
        if (!found) std::printf("no record of family %s: %s/%s.txt\n", f.c_str(), expect.c_str(), f.c_str());
    }
    for (const Ran& x : ran) {
        const auto& rec = records[x.c->family];
        const auto it = rec.find(x.c->name);
        const std::string name = x.c->family + "/" + x.c->name;
        if (it == rec.end()) {
            std::printf("not recorded: %s (run simt-conformance-cuda --record on a GPU)%s%s\n", name.c_str(),
                        x.r.problem.empty() ? "" : "; the emulator: ", x.r.problem.c_str());
            ++missing;
            continue;
        }
        const std::vector<std::string> diffs = compare(x.r, it->second);
        if (diffs.empty()) {
            ++equal;
            continue;
        }
        ++differ;
        for (const auto& d : diffs) std::printf("differs: %s: %s\n", name.c_str(), d.c_str());
    }
    for (const auto& [f, rec] : records)
        for (const auto& [name, r] : rec)
            if (std::none_of(ran.begin(), ran.end(), [&](const Ran& x) { return x.c->family == f && x.c->name == name; }))
                std::printf("recorded but not in the suite: %s/%s\n", f.c_str(), name.c_str()), ++missing;
    std::printf("conformance on %s against %s: %zu families, %zu cases, %zu constructs: %u equal, %u differ, %u missing\n",
                device_name().c_str(), expect.c_str(), families.size(), ran.size(), constructs, equal, differ, missing);
    return differ || missing ? 1 : 0;
}
