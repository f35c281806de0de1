#include "counters.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "theory.hpp"

namespace bench {

const char* const kMetrics =
    "smsp__inst_executed.sum,smsp__thread_inst_executed_pred_on.sum,"
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,"
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum";

namespace {

const std::string kWarpInst = "smsp__inst_executed.sum", kThreadInst = "smsp__thread_inst_executed_pred_on.sum",
                  kFadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                  kConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                  kWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", kDramRead = "dram__bytes_read.sum",
                  kDramWrite = "dram__bytes_write.sum", kTime = "gpu__time_duration.sum";

// One CSV record: quoted fields, commas inside quotes kept.
std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) {
            out.push_back(cur);
            cur.clear();
        } else cur += c;
    }
    out.push_back(cur);
    return out;
}

// "4,198,144" -> 4198144; false for "n/a" and the like.
bool number(std::string text, double& value) {
    std::string digits;
    for (char c : text)
        if (c != ',') digits += c;
    if (digits.empty()) return false;
    char* end = nullptr;
    value = std::strtod(digits.c_str(), &end);
    return *end == '\0';
}

std::string thousands(double v) {
    std::string s = std::to_string(static_cast<long long>(v + 0.5));
    for (int i = static_cast<int>(s.size()) - 3; i > (s[0] == '-' ? 1 : 0); i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

std::string fmt(const char* f, double a, double b = 0) {
    char buf[160];
    std::snprintf(buf, sizeof buf, f, a, b);
    return buf;
}

KernelCounters total_of(const Profile& p) {
    KernelCounters t;
    t.kernel = "all kernels";
    for (const auto& k : p.kernels) {
        t.launches += k.launches;
        for (const auto& [m, v] : k.sum) t.sum[m] += v;
    }
    return t;
}

}  // namespace

const char* const kLaneMetrics = "smsp__inst_executed.sum,smsp__thread_inst_executed_pred_on.sum";

Lanes lanes_of(const Profile& profile) {
    const KernelCounters t = total_of(profile);
    return {t.get(kWarpInst), t.get(kThreadInst)};
}

double lane_share(const Profile& profile) {
    const Lanes l = lanes_of(profile);
    return profile.kernels.empty() || !(l.warp > 0) ? -1 : l.thread / (32 * l.warp);
}

double share_at_work(const Lanes& mine, const Lanes& reference) {
    const double idle = std::max(0.0, mine.idle());
    return reference.thread > 0 ? reference.thread / (reference.thread + idle) : -1;
}

double KernelCounters::get(const std::string& metric) const {
    const auto it = sum.find(metric);
    return it == sum.end() ? 0 : it->second;
}

Profile parse_ncu(const std::string& output) {
    Profile p;
    std::istringstream in(output);
    std::string line, errors;
    int kernel_col = -1, metric_col = -1, value_col = -1, id_col = -1;
    std::map<std::string, std::size_t> index;
    std::map<std::string, std::string> last_id;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find("ERR_NVGPUCTRPERM") != std::string::npos) {
            p.problem = "hardware counters are not permitted on this machine (ERR_NVGPUCTRPERM: the driver lets only "
                        "administrators profile; see NVIDIA's note on RmProfilingAdminOnly)";
            return p;
        }
        if (line.rfind("==ERROR==", 0) == 0) errors += line + "\n";
        if (line.rfind("\"ID\"", 0) == 0) {
            const auto names = fields(line);
            for (std::size_t i = 0; i < names.size(); ++i) {
                if (names[i] == "Kernel Name") kernel_col = static_cast<int>(i);
                if (names[i] == "Metric Name") metric_col = static_cast<int>(i);
                if (names[i] == "Metric Value") value_col = static_cast<int>(i);
                if (names[i] == "ID") id_col = static_cast<int>(i);
            }
            continue;
        }
        if (kernel_col < 0 || metric_col < 0 || value_col < 0 || id_col < 0 || line.empty() || line[0] != '"') continue;
        const auto f = fields(line);
        const auto need = static_cast<std::size_t>(std::max({kernel_col, metric_col, value_col, id_col}));
        if (f.size() <= need) continue;
        std::string kernel = f[static_cast<std::size_t>(kernel_col)];
        kernel = kernel.substr(0, kernel.find('('));
        double value = 0;
        if (!number(f[static_cast<std::size_t>(value_col)], value)) continue;
        auto it = index.find(kernel);
        if (it == index.end()) {
            it = index.emplace(kernel, p.kernels.size()).first;
            p.kernels.push_back({kernel, 0, {}});
        }
        KernelCounters& k = p.kernels[it->second];
        const std::string& id = f[static_cast<std::size_t>(id_col)];
        if (last_id[kernel] != id) {  // ncu prints one launch's metrics together
            last_id[kernel] = id;
            ++k.launches;
        }
        k.sum[f[static_cast<std::size_t>(metric_col)]] += value;
    }
    if (p.kernels.empty())
        p.problem = errors.empty() ? "ncu printed no counter table" : "ncu failed: " + errors;
    return p;
}

std::string counters_report(const std::string& function, std::size_t n, const Profile& profile) {
    if (!profile.problem.empty()) return function + ": no hardware counters: " + profile.problem + "\n";
    std::string out = function + " on n = " + std::to_string(n) + " (hardware counters, ncu):\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-28s %8s %14s %12s %14s %14s %12s\n", "kernel", "launches", "warp inst",
                  "lanes/inst", "FADD", "bank confl.", "DRAM MB");
    out += line;
    std::vector<KernelCounters> rows = profile.kernels;
    if (rows.size() > 1) rows.push_back(total_of(profile));
    for (const auto& k : rows) {
        const double warp = k.get(kWarpInst);
        std::snprintf(line, sizeof line, "  %-28s %8u %14s %12.2f %14s %14s %12.1f\n", k.kernel.substr(0, 28).c_str(),
                      k.launches, thousands(warp).c_str(), warp > 0 ? k.get(kThreadInst) / warp : 0.0,
                      thousands(k.get(kFadd)).c_str(), thousands(k.get(kConflicts)).c_str(),
                      (k.get(kDramRead) + k.get(kDramWrite)) / 1e6);
        out += line;
    }
    const KernelCounters all = total_of(profile);
    const Theory t = additions(function, n);
    const double fadd = all.get(kFadd);
    out += "  additions: " + thousands(fadd) + " FADD thread instructions";
    if (t.section) {
        const double sections = t.additions / t.per_section;
        out += fmt(" = %.1f per %g-element section", fadd / sections, static_cast<double>(t.section)) +
               "; theory " + thousands(t.per_section) + " (" + t.rule + ")";
    } else {
        out += fmt(" = %.3f per element; theory %.3f per element", fadd / static_cast<double>(n), t.additions / static_cast<double>(n)) +
               " (" + t.rule + ")" + (t.bound > 0 ? fmt(", bound 4N - 3 = %.3f per element", t.bound / static_cast<double>(n)) : "");
    }
    out += "; " + t.exercise + "\n";
    out += fmt("  measured / theory: %.4f\n", t.additions > 0 ? fadd / t.additions : 0.0);
    const double wavefronts = all.get(kWavefronts);
    out += "  shared memory: " + thousands(all.get(kConflicts)) + " bank conflicts over " + thousands(wavefronts) +
           " wavefronts" + (wavefronts > 0 ? fmt(" (%.1f%% extra)", 100 * all.get(kConflicts) / wavefronts) : "") + "\n";
    const double dram = all.get(kDramRead) + all.get(kDramWrite);
    out += fmt("  DRAM traffic: %.1f MB read + %.1f MB written", all.get(kDramRead) / 1e6, all.get(kDramWrite) / 1e6) +
           fmt(" = %.2fx the 8n bytes a scan must move (%.1f MB)\n", dram / (8.0 * static_cast<double>(n)), 8e-6 * static_cast<double>(n));
    return out;
}

nlohmann::json counters_json(const std::string& function, std::size_t n, const Profile& profile) {
    nlohmann::json j = {{"function", function}, {"n", n}};
    if (!profile.problem.empty()) {
        j["problem"] = profile.problem;
        return j;
    }
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : profile.kernels) kernels.push_back({{"kernel", k.kernel}, {"launches", k.launches}, {"metrics", k.sum}});
    const Theory t = additions(function, n);
    const KernelCounters all = total_of(profile);
    j["kernels"] = kernels;
    j["fadd"] = all.get(kFadd);
    j["theory_additions"] = t.additions;
    j["theory_rule"] = t.rule;
    j["exercise"] = t.exercise;
    if (t.bound > 0) j["bound_additions"] = t.bound;
    j["active_lanes_per_warp_instruction"] = all.get(kWarpInst) > 0 ? all.get(kThreadInst) / all.get(kWarpInst) : 0.0;
    j["dram_bytes"] = all.get(kDramRead) + all.get(kDramWrite);
    j["bank_conflicts"] = all.get(kConflicts);
    return j;
}

}  // namespace bench
