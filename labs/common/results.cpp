#include "results.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "device.hpp"
#include "finding_json.hpp"
#include "lab.hpp"

namespace harness::results {

using nlohmann::json;

namespace {

json where(const std::string& function, const std::string& name, const datasets::Entry* entry, std::size_t n) {
    return {{"function", function},
            {"dataset", name},
            {"class", entry ? entry->cls : ""},
            {"distribution", entry ? datasets::distribution_name(entry->spec.dist) : ""},
            {"n", entry ? entry->spec.n : n},
            {"seed", entry ? json(entry->spec.seed) : json(nullptr)}};
}

}  // namespace

void Recorder::open(const std::string& path, const std::string& cls) {
    path_ = path;
    cls_ = cls;
    if (!path.empty()) std::remove(path.c_str());
}

void Recorder::dataset(const std::string& function, const std::string& name, const datasets::Entry* entry,
                       std::size_t n, const std::vector<Check>& checks, const Observation& seen,
                       const std::vector<Problem>& problems) {
    if (path_.empty()) return;
    json out = where(function, name, entry, n);
    json failed = json::array(), found = json::array(), listed = json::array();
    for (const Check& c : checks) {
        if (c.ok) continue;
        json rule = {{"rule", c.rule}, {"message", c.message}};
        if (c.rule == "outputs_match") rule.update({{"wrong", c.wrong}, {"first_wrong", c.first_wrong}});
        failed.push_back(rule);
    }
    for (const finding::Finding& f : seen.findings) found.push_back(f);
    if (seen.leaked_bytes) found.push_back(finding::leak(seen.leaked_bytes, seen.leaked_allocations, function));
    for (const Problem& p : problems)
        listed.push_back({{"key", p.key}, {"severity", label(p.severity)}, {"rule", p.rule}, {"brief", p.brief}});
    out.update({{"verdict", problems.empty() ? "pass" : "fail"},
                {"why", ""},
                {"failed", failed},
                {"findings", found},
                {"problems", listed}});
    datasets_.push_back(out);
}

void Recorder::not_tested(const std::string& function, const std::string& name, const datasets::Entry& entry,
                          const std::string& why) {
    if (path_.empty()) return;
    json out = where(function, name, &entry, 0);
    out.update({{"verdict", "skip"},
                {"why", why},
                {"failed", json::array()},
                {"findings", json::array()},
                {"problems", json::array()}});
    datasets_.push_back(out);
}

void Recorder::fix_first(const Triage& triage) {
    json runs = json::array(), items = json::array();
    for (const FunctionRuns& r : triage.runs())
        runs.push_back({{"function", r.function}, {"datasets", r.datasets}, {"failed", r.failed}});
    for (const FixFirstItem& item : triage.fix_first()) {
        const bool note = item.key.empty();
        json i = {{"kind", note ? "divergence" : "problem"},
                  {"severity", label(item.severity)},
                  {"key", item.key},
                  {"title", item.title},
                  {"first", item.first},
                  {"datasets", item.datasets}};
        if (note) i.update({{"kernel", item.kernel}, {"lowest", item.lowest}});
        items.push_back(i);
    }
    fix_first_ = {{"runs", runs}, {"items", items}};
}

void Recorder::divergence_target(const Preview& target) {
    if (!target.text.empty()) target_ = {{"text", target.text}, {"fields", target.fields}};
}

void Recorder::write(int status, const std::string& device, const std::string& why, const std::string& details_file,
                     bool details_printed) const {
    if (path_.empty()) return;
    const json out = {{"format", kFormat},
                      {"lab", kLab.id},
                      {"class", cls_},
                      {"backend", device::backend()},
                      {"device", device},
                      {"block_order", device::block_order()},
                      {"result", status == 0 ? "pass" : status == 77 ? "skip" : "fail"},
                      {"why", why},
                      {"details_file", details_file},
                      {"details_printed", details_printed},
                      {"datasets", datasets_},
                      {"fix_first", fix_first_},
                      {"divergence_target", target_}};
    const std::string partial = path_ + ".partial";
    {
        std::ofstream file(partial, std::ios::trunc);
        // Text that is not UTF-8 (a byte of a student's source in a message) is replaced, not refused.
        file << out.dump(1, ' ', false, json::error_handler_t::replace) << "\n";
        if (!file.flush()) {
            std::fprintf(stderr, "cannot write the results file %s\n", partial.c_str());
            return;
        }
    }
    if (std::rename(partial.c_str(), path_.c_str()) != 0) {
        std::fprintf(stderr, "cannot rename %s to %s\n", partial.c_str(), path_.c_str());
        std::remove(partial.c_str());
    }
}

}  // namespace harness::results
