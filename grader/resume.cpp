#include "resume.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>

#include "files.hpp"

namespace grader {

using json = nlohmann::json;

namespace {

// FNV-1a, 64 bits: a change detector, not a secret.
struct Hash {
    std::uint64_t h = 1469598103934665603ull;
    Hash& add(const std::string& s) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull;  // a separator, so ("ab", "c") differs from ("a", "bc")
        return *this;
    }
};

std::string hex(const Hash& hash) {
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(hash.h));
    return out;
}

// The rubric as grading reads it: without "slurm", which only says where to grade.
std::string grading_text(const std::string& rubric_text) {
    json doc = json::parse(rubric_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("slurm")) return rubric_text;
    doc.erase("slurm");
    return doc.dump();
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
    for (const auto& [lab, specs] : ctx.rubric.hidden)
        for (const auto& spec : specs) hash.add(lab).add(datasets::describe(spec) + " " + std::to_string(spec.seed));
    for (const auto& lab : ctx.labs) {
        hash.add(lab);
        const auto file = sub.files.find(lab);
        hash.add(file == sub.files.end() ? "" : "file:" + read_file(file->second));
    }
    for (const auto& ignored : sub.ignored) hash.add(ignored);
    Fingerprint fp{hex(hash), ""};
    fp.full = hex(Hash{}.add(fp.inputs).add(backend_names(ctx)).add(ctx.device));
    return fp;
}

void write_record(const Report& r, const Fingerprint& fp, const std::string& directory) {
    json labs = json::array();
    for (const LabResult& lab : r.labs) {
        json components = json::array();
        for (const Component& c : lab.components)
            components.push_back({{"name", c.name}, {"score", c.score}, {"max_score", c.max_score},
                                  {"gradable", c.gradable}, {"note", c.note}});
        labs.push_back({{"lab", lab.lab}, {"note", lab.note}, {"components", components}});
    }
    json phases = json::array();
    for (const Phase& p : r.phases) phases.push_back({{"name", p.name}, {"s", p.seconds}});
    const json record = {{"fingerprint", fp.full}, {"inputs", fp.inputs}, {"submission", r.submission}, {"backend", r.backend},
                         {"device", r.device}, {"notes", r.notes}, {"labs", labs},
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
        r.notes = record.at("notes").get<std::vector<std::string>>();
        r.seconds = record.at("seconds").get<double>();
        for (const json& p : record.at("phases")) r.phases.push_back({p.at("name"), p.at("s")});
        for (const json& l : record.at("labs")) {
            LabResult lab;
            lab.lab = l.at("lab").get<std::string>();
            lab.note = l.at("note").get<std::string>();
            for (const json& c : l.at("components"))
                lab.components.push_back({c.at("name"), c.at("score"), c.at("max_score"), c.at("gradable"), c.at("note")});
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
