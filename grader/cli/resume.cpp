#include "grader/cli/resume.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>

#include "grader/core/files.hpp"
#include "grader/core/hash.hpp"
#include "grader/core/result_cache.hpp"
#include "grader/grading/workspace.hpp"

namespace grader {

using json = nlohmann::json;

namespace {

// The hidden datasets as drawn: a secret in the environment changes their
// seeds, not the rubric's text.
std::string hidden_datasets(const Rubric& rubric) {
    std::string out;
    for (const auto& [lab, specs] : rubric.hidden)
        for (const auto& spec : specs) out += lab + " " + datasets::describe(spec) + " " + std::to_string(spec.seed) + "\n";
    return out;
}

json read_json(const std::string& directory) {
    std::ifstream in(directory + "/grade.json");
    if (!in) return nullptr;
    return json::parse(in, nullptr, false);
}

}  // namespace

Fingerprint fingerprint(const Context& ctx, const Submission& sub, const std::string& rubric_text) {
    Hash hash;
    hash.add(grading_text(rubric_text)).add(ctx.backend_asked);
    hash.add(hidden_datasets(ctx.rubric)).add(ctx.show_hidden ? "hidden shown" : "hidden withheld");
    for (const auto& lab : ctx.labs) {
        hash.add(lab);
        const auto file = sub.files.find(lab);
        hash.add(file == sub.files.end() ? "" : "file:" + graded_text(file->second) + file->second.from);
        const auto missing = sub.missing.find(lab);
        hash.add(missing == sub.missing.end() ? "" : "missing:" + missing->second);
    }
    for (const auto& ignored : sub.ignored) hash.add(ignored);
    for (const auto& left : sub.left_out) hash.add(left);
    Fingerprint fp{hash.hex(), ""};
    fp.full = Hash{}.add(fp.inputs).add(backend_names(ctx)).add(ctx.device).hex();
    return fp;
}

std::string cache_salt(const Context& ctx, const std::string& rubric_text) {
    Hash hash;
    hash.add(read_file("/proc/self/exe")).add(grading_text(rubric_text)).add(ctx.backend_asked);
    hash.add(backend_names(ctx)).add(ctx.device);
    hash.add(hidden_datasets(ctx.rubric)).add(ctx.show_hidden ? "hidden shown" : "hidden withheld");
    for (const std::string& file : build_files(ctx.kit, reference_kit_parts()))
        hash.add(file).add(read_file(ctx.kit + "/" + file));
    return hash.hex();
}

void write_record(const Report& r, const Fingerprint& fp, const std::string& directory) {
    json labs = json::array();
    for (const LabResult& lab : r.labs) {
        labs.push_back({{"lab", lab.lab}, {"note", lab.note}, {"components", lab.components},
                        {"emulator_limits", limits_to_json(lab.emulator_limits)}});
    }
    json phases = json::array();
    for (const Phase& p : r.phases) phases.push_back({{"name", p.name}, {"s", p.seconds}});
    const json record = {{"fingerprint", fp.full}, {"inputs", fp.inputs}, {"submission", r.submission}, {"backend", r.backend},
                         {"device", r.device}, {"sandboxed", r.sandboxed}, {"hidden", r.hidden},
                         {"run_notes", r.run_notes}, {"notes", r.notes}, {"flags", r.flags}, {"refused", r.refused}, {"labs", labs},
                         {"seconds", r.seconds}, {"phases", phases}};
    write_file(directory + "/grade.json", record.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
}

namespace {

// The report a parsed record holds; nothing where it is not a whole record.
std::optional<Report> report_of(const json& record) {
    try {
        if (!record.is_object()) return std::nullopt;
        Report r;
        r.submission = record.at("submission").get<std::string>();
        r.backend = record.at("backend").get<std::string>();
        r.device = record.at("device").get<std::string>();
        // Absent from an older grader's record: what a batch's summary says of the run (gradebook.hpp).
        r.sandboxed = record.value("sandboxed", false);
        r.hidden = record.value("hidden", "");
        r.run_notes = record.value("run_notes", std::vector<std::string>{});
        r.notes = record.at("notes").get<std::vector<std::string>>();
        r.flags = record.at("flags").get<std::vector<std::string>>();
        r.refused = record.at("refused").get<std::string>();
        r.seconds = record.at("seconds").get<double>();
        for (const json& p : record.at("phases")) r.phases.push_back({p.at("name"), p.at("s")});
        for (const json& l : record.at("labs")) {
            LabResult lab;
            lab.lab = l.at("lab").get<std::string>();
            lab.note = l.at("note").get<std::string>();
            lab.components = l.at("components").get<std::vector<Component>>();
            lab.emulator_limits = limits_from_json(l.at("emulator_limits"));
            r.labs.push_back(lab);
        }
        return r;
    } catch (const json::exception&) {
        return std::nullopt;  // a record cut short by a stop, or edited: graded again
    }
}

}  // namespace

std::optional<Report> read_record(const std::string& directory, const std::string& full) {
    const json record = read_json(directory);
    if (!full.empty() && (!record.is_object() || record.value("fingerprint", "") != full)) return std::nullopt;
    return report_of(record);
}

bool has_record_for(const std::string& directory, const std::string& inputs) {
    const json record = read_json(directory);
    return record.is_object() && record.value("inputs", "") == inputs && report_of(record);
}

}  // namespace grader
