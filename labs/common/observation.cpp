#include "observation.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>
#include <stdexcept>

#include "compare.hpp"
#include "score.hpp"

namespace harness {

std::vector<float> guarded(std::vector<float> in) {
    in.resize(in.size() + kGuard, kInputGuard);
    return in;
}

double DivergenceCell::active_fraction() const {
    return warp_visits ? static_cast<double>(lane_visits) / (32.0 * static_cast<double>(warp_visits)) : 1.0;
}

DivergenceCell& DivergenceCell::operator+=(const DivergenceCell& other) {
    lane_visits += other.lane_visits;
    warp_visits += other.warp_visits;
    divergent_blocks += other.divergent_blocks;
    return *this;
}

DivergenceCell KernelDivergence::total() const {
    DivergenceCell sum;
    for (const auto& row : cells)
        for (const auto& c : row) sum += c;
    return sum;
}

double simt_efficiency(const std::vector<KernelDivergence>& launches) {
    DivergenceCell sum;
    for (const auto& d : launches) sum += d.total();
    return sum.active_fraction();
}

DivergentWarps divergent_warps(const std::vector<KernelDivergence>& launches) {
    DivergentWarps out;
    for (const KernelDivergence& d : launches) {
        auto& row = out.emplace_back();
        for (const auto& interval : d.cells)
            row.push_back(static_cast<unsigned>(std::count_if(interval.begin(), interval.end(),
                                                              [](const DivergenceCell& c) { return c.divergent_blocks > 0; })));
    }
    return out;
}

std::string modulo_mapping_trees(const std::vector<KernelDivergence>& mine, const DivergentWarps& reference) {
    bool reduction = false, distribution = false;
    const DivergentWarps warps = divergent_warps(mine);
    for (std::size_t l = 0; l < mine.size() && l < reference.size(); ++l)
        for (std::size_t i = 0; i < warps[l].size(); ++i) {
            const unsigned w = warps[l][i], ref = i < reference[l].size() ? reference[l][i] : 0;
            if (w <= ref || 2 * w < mine[l].warps_per_block || w < 2) continue;
            (2 * i < warps[l].size() ? reduction : distribution) = true;
        }
    return reduction && distribution ? "both trees" : reduction ? "the reduction tree" : distribution ? "the distribution tree" : "";
}

std::string ReportParts::text() const {
    std::string out = head;
    for (const auto& [interval, line] : intervals) out += line;
    return out + lanes;
}

std::string report_beyond(const KernelDivergence& mine, const std::vector<unsigned>& reference, std::size_t lines) {
    const std::vector<unsigned> warps = divergent_warps({mine}).front();
    const ReportParts& parts = mine.report;
    std::string beyond, others;
    std::size_t shown = 0, left = 0, other_shown = 0;
    for (const auto& [i, line] : parts.intervals) {
        const bool more = i < warps.size() && warps[i] > (i < reference.size() ? reference[i] : 0);
        if (more && shown < lines) {
            beyond += line;
            ++shown;
        } else if (more) {
            ++left;
        } else if (other_shown < lines) {
            others += line;
            ++other_shown;
        }
    }
    if (shown == 0) return parts.head + others + "  [...]\n";
    return parts.head + beyond +
           (left ? "  [... and " + std::to_string(left) + " more interval(s) where more warps diverged than the reference's]\n"
                 : "");
}

std::string divergence_cause(const std::string& function, const std::vector<KernelDivergence>& mine,
                             const DivergentWarps& reference, std::string* why) {
    if (function.find("brent_kung") == std::string::npos) return "";  // the trees and their mappings are Brent-Kung's
    const std::string trees = modulo_mapping_trees(mine, reference);
    if (trees.empty()) return "";
    if (why)
        *why = "a test like (t + 1) % (2 * stride) == 0 spreads the busy threads over every warp, so most warps diverge "
               "at the small strides; the contiguous index = (t + 1) * 2 * stride - 1 keeps them in the first warps";
    return "likely the modulo mapping in " + trees;
}

std::size_t host_round_trip_limit(std::size_t n) { return n > 1 ? std::max<std::size_t>(1, n / 8) : 0; }

std::vector<Check> judge(const std::vector<float>& input, const Observation& seen, const datasets::ScanSpec& spec,
                         bool exact, const std::string& function) {
    if (!seen.error.empty())
        return {{"no_device_error", false, seen.error}};
    const std::size_t n = input.size();
    std::vector<Check> checks;

    const std::vector<float> before = guarded(input);
    std::string changed;
    for (std::size_t i = 0; i < before.size() && changed.empty(); ++i)
        if (std::memcmp(&before[i], &seen.in_after[i], sizeof(float)) != 0)
            changed = (i < n ? "in[" + std::to_string(i) + "]" : "guard element in[n + " + std::to_string(i - n) + "]") +
                      " changed";
    checks.push_back({"input_unchanged", changed.empty(), "the input must not be modified: " + changed});

    std::string overrun;
    for (std::size_t i = n; i < seen.out.size() && overrun.empty(); ++i)
        if (!compare::is_poison(seen.out[i])) overrun = "out[n + " + std::to_string(i - n) + "] written";
    checks.push_back({"nothing_written_past_n", overrun.empty(),
                      "wrote past the end of the output (n = " + std::to_string(n) + "): " + overrun});

    std::string found;
    for (const auto& f : seen.findings) found += "\n  " + finding::sentence(f);
    checks.push_back({"backend_checks_clean", seen.findings.empty(),
                      "the emulator's checks failed (even where the values came out right):" + found});

    checks.push_back({"temporaries_freed", seen.leaked_bytes == 0,
                      "device memory leaked: " + std::to_string(seen.leaked_bytes) + " bytes in " +
                          std::to_string(seen.leaked_allocations) + " allocation(s) still live after " + function +
                          " returned; cudaFree every temporary"});

    // Values copied to the host, and of host data in the output (-1 bytes, unknown: 0).
    const long long to_host = seen.to_host_bytes / 4, back = seen.host_bytes_in_output / 4;
    const auto limit = static_cast<long long>(host_round_trip_limit(n));
    if (n > 0 && seen.launches == 0)
        checks.push_back({"ran_on_gpu", false, function + " launched no kernel: the scan must run on the GPU"});
    else if (n > 0 && seen.output_from_kernel == 0 &&
             !std::all_of(seen.out.begin(), seen.out.begin() + static_cast<std::ptrdiff_t>(n), compare::is_poison))
        // (an output nothing wrote at all is outputs_match's "never written")
        checks.push_back({"ran_on_gpu", false,
                          function + "'s kernels never wrote the output (" +
                              (seen.launches > 0 ? std::to_string(seen.launches) + " launch(es), " +
                                                       std::to_string(seen.blocks) + " block(s)"
                                                 : std::string("launches not counted")) +
                              "; the values came from the host): the scan must run on the GPU"});
    else if (n > 0 && to_host > limit && back > limit)
        // A kernel wrote the output, but from data that went through the
        // host: the host's answer, uploaded and copied into place.
        checks.push_back({"ran_on_gpu", false,
                          function + " copied " + std::to_string(to_host) + (to_host == 1 ? " value" : " values") +
                              " to the host and uploaded " + std::to_string(back) + " that reached the output (n = " +
                              std::to_string(n) + "; more than " + std::to_string(limit) +
                              " each way is a scan done on the host, not block sums): the scan must run on the GPU"});

    const std::vector<float> out(seen.out.begin(), seen.out.begin() + static_cast<std::ptrdiff_t>(n));
    const compare::Result r = compare::compare(input, out, spec, exact);
    checks.push_back({"outputs_match", r.ok(), r.report, r.wrong, r.first_wrong.value_or(0)});
    return checks;
}

// The file: a magic line, then fields as (tag, size, bytes) records. Every
// size is checked against what is left, so a truncated or forged file is
// rejected with a reason rather than read out of bounds.
namespace {

// The last byte is the format's version: 3 added the divergence maps' cells,
// 4 the launch counts, the output's origin and the block order, 5 findings
// as records (finding.hpp) instead of sentences and the divergence report in
// its parts, 6 the findings' columns, 7 the data through the host.
constexpr char kMagic[8] = {'S', 'C', 'A', 'N', 'O', 'B', 'S', '7'};

struct Writer {
    std::string bytes{kMagic, sizeof kMagic};
    void raw(const void* p, std::size_t size) { bytes.append(static_cast<const char*>(p), size); }
    void u64(std::uint64_t v) { raw(&v, sizeof v); }
    void str(const std::string& s) {
        u64(s.size());
        raw(s.data(), s.size());
    }
    template <class T>
    void vec(const std::vector<T>& v) {
        u64(v.size());
        raw(v.data(), v.size() * sizeof(T));
    }
};

struct Reader {
    std::string_view bytes;
    std::size_t at = sizeof kMagic;
    void raw(void* p, std::size_t size) {
        if (size > bytes.size() - at) throw std::runtime_error("the result file is truncated or corrupt");
        std::memcpy(p, bytes.data() + at, size);
        at += size;
    }
    std::uint64_t u64() {
        std::uint64_t v;
        raw(&v, sizeof v);
        return v;
    }
    // A count of records of at least `record_size` bytes each, checked against what is left.
    std::uint64_t count(std::size_t record_size) {
        const std::uint64_t n = u64();
        if (n > (bytes.size() - at) / record_size) throw std::runtime_error("the result file is truncated or corrupt");
        return n;
    }
    std::string str() {
        const std::uint64_t size = count(1);
        std::string s(bytes.data() + at, size);
        at += size;
        return s;
    }
    template <class T>
    std::vector<T> vec() {
        std::vector<T> v(count(sizeof(T)));
        raw(v.data(), v.size() * sizeof(T));
        return v;
    }
};

void write_finding(Writer& w, const finding::Finding& f) {
    w.u64(static_cast<std::uint64_t>(f.source));
    w.str(f.kind);
    w.u64(f.undefined);
    for (const std::string* s : {&f.tool, &f.check, &f.kernel, &f.function}) w.str(*s);
    w.u64(f.lines.size());
    for (const auto& line : f.lines) w.str(line);
    w.vec(f.columns);
    for (const std::string* s : {&f.launch, &f.block, &f.thread, &f.allocation}) w.str(*s);
    for (unsigned long long n : {f.blocks, f.bytes, f.allocations, f.reports, f.pairs, f.hazards}) w.u64(n);
    w.str(f.message);
}

finding::Finding read_finding(Reader& r) {
    const auto malformed = [] { return std::runtime_error("the result file's findings are malformed"); };
    finding::Finding f;
    const std::uint64_t source = r.u64();
    if (source > static_cast<std::uint64_t>(finding::Source::Withheld)) throw malformed();
    f.source = static_cast<finding::Source>(source);
    f.kind = r.str();
    if (std::find(std::begin(score::kCategories), std::end(score::kCategories), f.kind) == std::end(score::kCategories))
        throw malformed();
    const std::uint64_t undefined = r.u64();
    if (undefined > 1) throw malformed();
    f.undefined = undefined != 0;
    for (std::string* s : {&f.tool, &f.check, &f.kernel, &f.function}) *s = r.str();
    for (std::uint64_t i = 0, count = r.count(8); i < count; ++i) f.lines.push_back(r.str());
    f.columns = r.vec<unsigned>();
    if (f.columns.size() > f.lines.size()) throw malformed();
    for (std::string* s : {&f.launch, &f.block, &f.thread, &f.allocation}) *s = r.str();
    for (unsigned long long* n : {&f.blocks, &f.bytes, &f.allocations, &f.reports, &f.pairs, &f.hazards}) *n = r.u64();
    f.message = r.str();
    return f;
}

}  // namespace

std::string encode_observation(const Observation& seen) {
    Writer w;
    // The two arrays are nearly all of it (128 MiB for a timing run's 2^24
    // elements): one allocation, not a copy at every doubling.
    w.bytes.reserve(w.bytes.size() + (seen.in_after.size() + seen.out.size()) * sizeof(float) + 4096);
    w.u64(seen.n);
    w.vec(seen.in_after);
    w.vec(seen.out);
    w.u64(seen.leaked_bytes);
    w.u64(seen.leaked_allocations);
    w.u64(seen.findings.size());
    for (const auto& f : seen.findings) write_finding(w, f);
    w.str(seen.error);
    w.u64(seen.sticky);
    w.u64(seen.divergence.size());
    for (const auto& d : seen.divergence) {
        w.str(d.kernel);
        w.u64(d.blocks);
        w.u64(d.warps_per_block);
        w.u64(d.cells.size());
        for (const auto& row : d.cells) {
            w.u64(row.size());
            for (const auto& c : row) {
                w.u64(c.lane_visits);
                w.u64(c.warp_visits);
                w.u64(c.divergent_blocks);
            }
        }
        w.str(d.report.head);
        w.u64(d.report.intervals.size());
        for (const auto& [interval, line] : d.report.intervals) {
            w.u64(interval);
            w.str(line);
        }
        w.str(d.report.lanes);
    }
    w.u64(static_cast<std::uint64_t>(seen.launches));
    w.u64(static_cast<std::uint64_t>(seen.blocks));
    w.u64(static_cast<std::uint64_t>(static_cast<long long>(seen.output_from_kernel)));
    w.str(seen.block_order);
    w.u64(static_cast<std::uint64_t>(seen.to_host_bytes));
    w.u64(static_cast<std::uint64_t>(seen.host_bytes_in_output));
    return std::move(w.bytes);
}

void write_observation(const std::string& path, const Observation& seen) {
    const std::string bytes = encode_observation(seen);
    std::ofstream file(path, std::ios::binary);
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!file.flush()) throw std::runtime_error("cannot write " + path);
}

Observation read_observation(const std::string& path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) throw std::runtime_error("no result file was written");
    // Read whole, in one call: a character at a time took a large run's
    // 128 MiB about half a second.
    std::string bytes(static_cast<std::size_t>(std::max<std::streamoff>(file.tellg(), 0)), '\0');
    file.seekg(0);
    if (!file.read(bytes.data(), static_cast<std::streamsize>(bytes.size())))
        throw std::runtime_error("the result file could not be read");
    return decode_observation(bytes);
}

Observation decode_observation(std::string_view bytes) {
    Reader r{bytes};
    if (r.bytes.size() < sizeof kMagic || std::memcmp(r.bytes.data(), kMagic, sizeof kMagic) != 0)
        throw std::runtime_error("the result file is not a scan-labs observation");
    Observation seen;
    seen.n = r.u64();
    seen.in_after = r.vec<float>();
    seen.out = r.vec<float>();
    if (seen.in_after.size() != seen.n + kGuard || seen.out.size() != seen.n + kGuard)
        throw std::runtime_error("the result file's arrays do not match its n");
    seen.leaked_bytes = r.u64();
    seen.leaked_allocations = r.u64();
    for (std::uint64_t i = 0, count = r.count(8); i < count; ++i) seen.findings.push_back(read_finding(r));
    seen.error = r.str();
    seen.sticky = r.u64() != 0;
    for (std::uint64_t i = 0, count = r.count(8); i < count; ++i) {
        KernelDivergence d;
        d.kernel = r.str();
        d.blocks = static_cast<unsigned>(r.u64());
        d.warps_per_block = static_cast<unsigned>(r.u64());
        for (std::uint64_t k = 0, rows = r.count(8); k < rows; ++k) {
            auto& row = d.cells.emplace_back(r.count(24));
            if (row.size() != d.warps_per_block) throw std::runtime_error("the result file's divergence map is malformed");
            for (auto& c : row) {
                c.lane_visits = r.u64();
                c.warp_visits = r.u64();
                c.divergent_blocks = static_cast<unsigned>(r.u64());
                // More active lanes than a warp has, or more diverged blocks than ran: forged or corrupt.
                if (c.lane_visits / 32 + (c.lane_visits % 32 != 0) > c.warp_visits || c.divergent_blocks > d.blocks)
                    throw std::runtime_error("the result file's divergence map is malformed");
            }
        }
        d.report.head = r.str();
        for (std::uint64_t k = 0, lines = r.count(16); k < lines; ++k) {
            const std::uint64_t interval = r.u64();
            if (interval >= d.cells.size()) throw std::runtime_error("the result file's divergence map is malformed");
            d.report.intervals.push_back({interval, r.str()});
        }
        d.report.lanes = r.str();
        seen.divergence.push_back(std::move(d));
    }
    seen.launches = static_cast<long long>(r.u64());
    seen.blocks = static_cast<long long>(r.u64());
    const auto origin = static_cast<long long>(r.u64());
    if (seen.launches < -1 || seen.blocks < -1 || origin < -1 || origin > 1)
        throw std::runtime_error("the result file's launch counts are malformed");
    seen.output_from_kernel = static_cast<int>(origin);
    seen.block_order = r.str();
    seen.to_host_bytes = static_cast<long long>(r.u64());
    seen.host_bytes_in_output = static_cast<long long>(r.u64());
    if (seen.to_host_bytes < -1 || seen.host_bytes_in_output < -1)
        throw std::runtime_error("the result file's counts of data through the host are malformed");
    if (r.at != r.bytes.size()) throw std::runtime_error("the result file has trailing bytes");
    return seen;
}

}  // namespace harness
