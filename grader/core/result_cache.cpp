#include "grader/core/result_cache.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "finding_json.hpp"
#include "grader/core/files.hpp"
#include "grader/core/hash.hpp"

namespace fs = std::filesystem;

namespace grader {

using json = nlohmann::json;

namespace {

// Bumped when LabResult or its JSON changes: older entries are then misses
// (3: findings as records, finding.hpp, and divergence reports in parts;
// 4: a finding's source by name, finding_json.hpp; 5: what to fix first).
constexpr int kFormat = 5;

json divergence_to_json(const harness::KernelDivergence& d) {
    json cells = json::array();
    for (const auto& row : d.cells) {
        json r = json::array();
        for (const auto& c : row) r.push_back({c.lane_visits, c.warp_visits, c.divergent_blocks});
        cells.push_back(r);
    }
    return {{"kernel", d.kernel}, {"blocks", d.blocks}, {"warps_per_block", d.warps_per_block}, {"cells", cells},
            {"report", {{"head", d.report.head}, {"intervals", d.report.intervals}, {"lanes", d.report.lanes}}}};
}

harness::KernelDivergence divergence_from_json(const json& j) {
    harness::KernelDivergence d;
    d.kernel = j.at("kernel");
    d.blocks = j.at("blocks");
    d.warps_per_block = j.at("warps_per_block");
    for (const json& r : j.at("cells")) {
        auto& row = d.cells.emplace_back();
        for (const json& c : r) row.push_back({c.at(0), c.at(1), c.at(2)});
    }
    const json& report = j.at("report");
    report.at("head").get_to(d.report.head);
    report.at("intervals").get_to(d.report.intervals);
    report.at("lanes").get_to(d.report.lanes);
    return d;
}

json divergences_to_json(const std::vector<harness::KernelDivergence>& list) {
    json out = json::array();
    for (const auto& d : list) out.push_back(divergence_to_json(d));
    return out;
}

std::vector<harness::KernelDivergence> divergences_from_json(const json& j) {
    std::vector<harness::KernelDivergence> out;
    for (const json& d : j) out.push_back(divergence_from_json(d));
    return out;
}

}  // namespace

void to_json(json& j, const Component& c) {
    j = {{"name", c.name}, {"score", c.score}, {"max_score", c.max_score}, {"gradable", c.gradable}, {"note", c.note}};
}

void from_json(const json& j, Component& c) {
    c = {j.at("name"), j.at("score"), j.at("max_score"), j.at("gradable"), j.at("note")};
}

json limits_to_json(const std::vector<simt::Limit>& limits) {
    json out = json::array();
    for (const simt::Limit& l : limits) out.push_back({{"construct", l.construct}, {"written", l.written}, {"line", l.line}});
    return out;
}

std::vector<simt::Limit> limits_from_json(const json& j) {
    std::vector<simt::Limit> out;
    for (const json& l : j) out.push_back({l.at("construct"), l.at("written"), l.at("line")});
    return out;
}

json lab_to_json(const LabResult& lab) {
    json tests = json::array(), divergence = json::array();
    for (const TestResult& t : lab.tests)
        tests.push_back({{"name", t.name}, {"lab", t.lab}, {"component", t.component}, {"score", t.score},
                         {"max_score", t.max_score}, {"status", static_cast<int>(t.status)}, {"hidden", t.hidden},
                         {"output", t.output}, {"seconds", t.seconds}});
    for (const DivergenceMaps& d : lab.divergence)
        divergence.push_back({{"function", d.function}, {"dataset", d.dataset}, {"mine", divergences_to_json(d.mine)},
                              {"reference", divergences_to_json(d.reference)}, {"not_scored", d.not_scored}});
    json fix_first = json::array();
    for (const harness::FixFirstItem& i : lab.fix_first)
        fix_first.push_back({static_cast<int>(i.severity), i.key, i.title, i.first, i.datasets, i.kernel, i.lowest});
    return {{"lab", lab.lab},   {"submitted", lab.submitted}, {"built", lab.built},   {"note", lab.note},
            {"components", lab.components}, {"tests", tests}, {"source", lab.source}, {"findings", lab.findings},
            {"divergence", divergence}, {"emulator_limits", limits_to_json(lab.emulator_limits)}, {"fix_first", fix_first}};
}

LabResult lab_from_json(const json& j) {
    LabResult lab;
    lab.lab = j.at("lab");
    lab.submitted = j.at("submitted");
    lab.built = j.at("built");
    lab.note = j.at("note");
    lab.components = j.at("components").get<std::vector<Component>>();
    for (const json& t : j.at("tests")) {
        const int status = t.at("status");
        if (status < 0 || status > static_cast<int>(Status::NotGradable))
            throw json::out_of_range::create(401, "a test's status is out of range", &t);
        lab.tests.push_back({t.at("name"), t.at("lab"), t.at("component"), t.at("score"), t.at("max_score"),
                             static_cast<Status>(status), t.at("hidden"), t.at("output"), t.at("seconds")});
    }
    lab.source = j.at("source");
    j.at("findings").get_to(lab.findings);
    for (const json& d : j.at("divergence"))
        lab.divergence.push_back({d.at("function"), d.at("dataset"), divergences_from_json(d.at("mine")),
                                  divergences_from_json(d.at("reference")), d.value("not_scored", "")});
    lab.emulator_limits = limits_from_json(j.at("emulator_limits"));
    for (const json& i : j.at("fix_first")) {
        const int severity = i.at(0);
        if (severity < 0 || severity > static_cast<int>(harness::Severity::Note))
            throw json::out_of_range::create(401, "a fix-first item's severity is out of range", &i);
        lab.fix_first.push_back({static_cast<harness::Severity>(severity), i.at(1), i.at(2), i.at(3), i.at(4), i.at(5), i.at(6)});
    }
    return lab;
}

std::string ResultCache::key(const std::string& lab, const std::string& source) const {
    return Hash{}.add(std::to_string(kFormat)).add(salt_).add(lab).add(source).hex();
}

std::optional<LabResult> ResultCache::find(const std::string& key) const {
    if (!on()) return std::nullopt;
    std::ifstream in(dir_ + "/" + key + ".json");
    if (!in) return std::nullopt;
    try {
        const json entry = json::parse(in);
        if (entry.at("format") != kFormat || entry.at("key") != key) return std::nullopt;
        return lab_from_json(entry.at("result"));
    } catch (const json::exception&) {
        return std::nullopt;  // cut short or edited: graded again, and stored over
    }
}

void ResultCache::store(const std::string& key, const LabResult& lab) const {
    if (!on() || !lab.timing.empty()) return;
    // Written aside and renamed into place, so a reader (another batch slot,
    // another Slurm task) sees a whole entry or none.
    std::error_code ec;
    fs::create_directories(dir_, ec);
    const std::string path = dir_ + "/" + key + ".json",
                      aside = path + "." + std::to_string(getpid()) + "-" +
                              std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())) + ".tmp";
    try {
        const json entry = {{"format", kFormat}, {"key", key}, {"result", lab_to_json(lab)}};
        write_file(aside, entry.dump());  // throws on text that is not UTF-8: such a result is not kept
        fs::rename(aside, path, ec);
    } catch (const std::exception&) {
    }
    fs::remove(aside, ec);
}

}  // namespace grader
