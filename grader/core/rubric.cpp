#include "grader/core/rubric.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <vector>
#include <nlohmann/json.hpp>

#include "catalog.hpp"

namespace grader {
namespace {

using nlohmann::json;

// Fields are optional; a present one must have the right type.
template <class T>
void read(const json& obj, const char* key, T& into, const std::string& where) {
    if (!obj.contains(key)) return;
    try {
        into = obj.at(key).get<T>();
    } catch (const json::exception&) {
        throw RubricError(where + "." + key + " has the wrong type (" + obj.at(key).type_name() + ")");
    }
}

// Levenshtein distance, for "did you mean" on a misspelt field.
std::size_t distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

// Every field of an object must be one the grader reads: a misspelt one
// ("lab" for "labs") would otherwise be ignored and its defaults graded.
void known_fields(const json& obj, std::initializer_list<const char*> known, const std::string& where) {
    if (!obj.is_object()) throw RubricError(where + " must be an object");
    for (const auto& [key, value] : obj.items()) {
        std::string closest;
        std::size_t best = std::string::npos;
        for (const char* k : known) {
            if (key == k) {
                best = 0;
                break;
            }
            if (const std::size_t d = distance(key, k); d < best) best = d, closest = k;
        }
        if (best == 0) continue;
        std::string list;
        for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
        throw RubricError(where + "." + key + " is not a rubric field; did you mean \"" + closest + "\"? (" + where +
                          " has: " + list + ")");
    }
}

// The hidden datasets' seeds: SplitMix64 of the secret and the dataset's place,
// so changing the secret changes every hidden dataset.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

void read_weights(const json& obj, Weights& w, const std::string& where) {
    known_fields(obj, {"correctness", "safety", "divergence", "timing"}, where);
    read(obj, "correctness", w.correctness, where);
    read(obj, "safety", w.safety, where);
    read(obj, "divergence", w.divergence, where);
    read(obj, "timing", w.timing, where);
    for (double v : {w.correctness, w.safety, w.divergence, w.timing})
        if (v < 0) throw RubricError(where + ": weights must not be negative");
}

}  // namespace

datasets::Spec Rubric::timing_spec() const {
    constexpr std::uint64_t kTiming = 0x74696d696e67;  // "timing": a stream of its own beside the labs' hidden datasets
    return {datasets::Distribution::Walk4, timing_n, mix(hidden_seed ^ mix(kTiming))};
}

std::string Rubric::timing_text() const { return "walk4 n=" + std::to_string(timing_n) + ", its seed drawn from the course's secret"; }

std::size_t Rubric::emulator_max_n(const std::string& lab) const {
    const auto it = emulator_with_gpu_max_n.find(lab);
    return it == emulator_with_gpu_max_n.end() ? 0 : it->second;
}

const Weights& Rubric::weights_of(const std::string& lab) const {
    static const Weights defaults;
    const auto it = weights.find(lab);
    return it == weights.end() ? defaults : it->second;
}

Rubric load_rubric(const std::string& path) {
    std::ifstream file(path);
    if (!file) throw RubricError("cannot read the rubric " + path);
    json doc;
    try {
        doc = json::parse(file);
    } catch (const json::parse_error& e) {
        throw RubricError(path + " is not valid JSON: " + e.what());
    }
    if (!doc.is_object()) throw RubricError(path + ": the rubric must be a JSON object");
    Rubric r;
    const std::string top = path;
    known_fields(doc, {"about", "hidden_seed", "weights", "forbid", "labs", "timeouts", "divergence", "timing", "sanitizer",
                       "no_gpu", "slurm", "intake", "similarity"},
                 top);
    read(doc, "hidden_seed", r.hidden_seed, top);
    if (const char* secret = std::getenv("SCAN_GRADE_SECRET"); secret && *secret) {
        char* end = nullptr;
        r.hidden_seed = std::strtoull(secret, &end, 0);
        if (*end != '\0') throw RubricError("SCAN_GRADE_SECRET must be an integer");
        r.hidden_seed_from_secret = true;
    }
    Weights common;
    if (doc.contains("weights")) read_weights(doc["weights"], common, top + ".weights");
    const auto read_forbid = [](const json& j, const std::string& where) {
        if (!j.is_array()) throw RubricError(where + " must be a list such as [\"CUB\", \"Thrust\"]");
        std::vector<std::string> out;
        for (const json& name : j) {
            if (!name.is_string() || (name != "CUB" && name != "Thrust"))
                throw RubricError(where + ": " + name.dump() + " is not a library the rubric can forbid (\"CUB\", \"Thrust\")");
            out.push_back(name);
        }
        return out;
    };
    const std::vector<std::string> forbid_all = doc.contains("forbid") ? read_forbid(doc["forbid"], top + ".forbid")
                                                                        : std::vector<std::string>{};
    for (const auto& lab : catalog::labs()) {
        r.weights[lab.id] = common;
        r.forbid[lab.id] = forbid_all;
    }
    if (doc.contains("labs")) {
        if (!doc["labs"].is_object()) throw RubricError(top + ".labs must be an object");
        for (const auto& [id, entry] : doc["labs"].items()) {
            const std::string where = top + ".labs." + id;
            const catalog::Lab* lab = catalog::find(id);
            if (!lab || lab->id != id) throw RubricError(where + ": no lab " + id);
            known_fields(entry, {"weights", "hidden", "forbid", "emulator_with_gpu_max_n", "gpu_only_n"}, where);
            read(entry, "emulator_with_gpu_max_n", r.emulator_with_gpu_max_n[id], where);
            std::size_t gpu_only_n = 0;
            read(entry, "gpu_only_n", gpu_only_n, where);
            if (gpu_only_n > 0xffffffffu) throw RubricError(where + ".gpu_only_n: the labs take at most 2^32 - 1 elements");
            constexpr std::uint64_t kGpuOnly = 0x6770756f6e6c79;  // "gpuonly": a stream of its own
            if (gpu_only_n)
                r.gpu_only[id] = {datasets::Distribution::Walk4, gpu_only_n,
                                  mix(r.hidden_seed ^ mix(kGpuOnly + static_cast<std::uint64_t>(lab->id[1])))};
            if (entry.contains("weights")) read_weights(entry["weights"], r.weights[id], where + ".weights");
            if (entry.contains("forbid")) r.forbid[id] = read_forbid(entry["forbid"], where + ".forbid");
            std::uint64_t place = 0;
            for (const auto& h : entry.value("hidden", json::array())) {
                known_fields(h, {"dist", "n"}, where + ".hidden[" + std::to_string(place) + "]");
                std::string dist;
                std::size_t n = 0;
                read(h, "dist", dist, where + ".hidden");
                read(h, "n", n, where + ".hidden");
                const auto d = datasets::parse_distribution(dist);
                if (!d) throw RubricError(where + ".hidden: unknown distribution '" + dist + "' (walk1, walk4, uniform)");
                r.hidden[id].push_back({*d, n, 0});
                r.hidden[id].back().seed = mix(r.hidden_seed ^ mix((static_cast<std::uint64_t>(lab->id[1]) << 32) + place++));
            }
        }
    }
    const json timeouts = doc.value("timeouts", json::object());
    known_fields(timeouts,
                 {"build_s", "run_base_s", "run_per_million_s", "gpu_per_million_s", "gpu_step_s", "give_up_after"},
                 top + ".timeouts");
    read(timeouts, "build_s", r.build_timeout_s, top + ".timeouts");
    read(timeouts, "run_base_s", r.run_base_s, top + ".timeouts");
    read(timeouts, "run_per_million_s", r.run_per_million_s, top + ".timeouts");
    read(timeouts, "gpu_per_million_s", r.gpu_per_million_s, top + ".timeouts");
    read(timeouts, "gpu_step_s", r.gpu_step_s, top + ".timeouts");
    read(timeouts, "give_up_after", r.give_up_after, top + ".timeouts");
    const json div = doc.value("divergence", json::object());
    known_fields(div, {"n", "full_within", "zero_below"}, top + ".divergence");
    read(div, "n", r.divergence_n, top + ".divergence");
    read(div, "full_within", r.divergence_full_within, top + ".divergence");
    read(div, "zero_below", r.divergence_zero_below, top + ".divergence");
    const json timing = doc.value("timing", json::object());
    for (const char* gone : {"rounds", "repeats"})
        if (timing.contains(gone))
            throw RubricError(top + ".timing." + gone + " is gone: timing now samples until the ratio is known "
                              "(min_rounds, max_rounds, rel_ci, max_seconds; grader/README.md)");
    known_fields(timing,
                 {"n", "min_rounds", "max_rounds", "rel_ci", "max_seconds", "ratio_step", "full_within", "zero_at"},
                 top + ".timing");
    read(timing, "n", r.timing_n, top + ".timing");
    read(timing, "min_rounds", r.timing_min_rounds, top + ".timing");
    read(timing, "max_rounds", r.timing_max_rounds, top + ".timing");
    read(timing, "rel_ci", r.timing_rel_ci, top + ".timing");
    read(timing, "max_seconds", r.timing_max_seconds, top + ".timing");
    read(timing, "ratio_step", r.timing_ratio_step, top + ".timing");
    read(timing, "full_within", r.timing_full_within, top + ".timing");
    read(timing, "zero_at", r.timing_zero_at, top + ".timing");
    if (r.timing_zero_at <= r.timing_full_within) throw RubricError(top + ".timing: zero_at must exceed full_within");
    if (r.timing_min_rounds < 3 || r.timing_max_rounds < r.timing_min_rounds)
        throw RubricError(top + ".timing: min_rounds must be at least 3 and max_rounds at least min_rounds");
    if (r.timing_rel_ci <= 0 || r.timing_max_seconds <= 0 || r.timing_ratio_step < 0)
        throw RubricError(top + ".timing: rel_ci and max_seconds must be > 0, ratio_step >= 0");
    const json san = doc.value("sanitizer", json::object());
    known_fields(san, {"n", "tools", "timeout_s"}, top + ".sanitizer");
    read(san, "n", r.sanitizer_n, top + ".sanitizer");
    read(san, "tools", r.sanitizer_tools, top + ".sanitizer");
    read(san, "timeout_s", r.sanitizer_timeout_s, top + ".sanitizer");
    for (const auto& tool : r.sanitizer_tools)
        if (tool != "racecheck" && tool != "memcheck" && tool != "initcheck" && tool != "synccheck")
            throw RubricError(top + ".sanitizer.tools: unknown tool '" + tool + "' (racecheck, memcheck, initcheck, synccheck)");
    std::string no_gpu = "exclude";
    read(doc, "no_gpu", no_gpu, top);
    if (no_gpu != "exclude" && no_gpu != "full") throw RubricError(top + ".no_gpu must be \"exclude\" or \"full\"");
    r.no_gpu_full_timing = no_gpu == "full";
    const json intake = doc.value("intake", json::object());
    known_fields(intake, {"misnamed", "headers", "header_max_bytes", "duplicates"}, top + ".intake");
    const auto choice = [&](const char* key) {
        std::string value = "grade";
        read(intake, key, value, top + ".intake");
        if (value != "grade" && value != "refuse")
            throw RubricError(top + ".intake." + key + " must be \"grade\" or \"refuse\"");
        return value;
    };
    r.intake.misnamed = choice("misnamed") == "grade";
    r.intake.refuse_duplicates = choice("duplicates") == "refuse";
    read(intake, "headers", r.intake.headers, top + ".intake");
    read(intake, "header_max_bytes", r.intake.header_max_bytes, top + ".intake");
    for (const std::string& pattern : r.intake.headers)
        if (pattern.empty() || pattern.find('/') != std::string::npos)
            throw RubricError(top + ".intake.headers: \"" + pattern + "\" is not a file name pattern such as \"*.cuh\"");
    const json slurm = doc.value("slurm", json::object());
    known_fields(slurm, {"partition", "account", "time", "chunk", "cpus_per_task"}, top + ".slurm");
    read(slurm, "partition", r.slurm.partition, top + ".slurm");
    read(slurm, "account", r.slurm.account, top + ".slurm");
    read(slurm, "time", r.slurm.time, top + ".slurm");
    read(slurm, "chunk", r.slurm.chunk, top + ".slurm");
    read(slurm, "cpus_per_task", r.slurm.cpus_per_task, top + ".slurm");
    if (r.slurm.chunk < 1 || r.slurm.cpus_per_task < 1) throw RubricError(top + ".slurm: chunk and cpus_per_task must be at least 1");
    const json similar = doc.value("similarity", json::object());
    known_fields(similar, {"check", "threshold", "min_tokens", "pairs"}, top + ".similarity");
    std::string check = "copydetect";
    read(similar, "check", check, top + ".similarity");
    if (check != "copydetect" && check != "off") throw RubricError(top + ".similarity.check must be \"copydetect\" or \"off\"");
    r.similarity.on = check == "copydetect";
    read(similar, "threshold", r.similarity.threshold, top + ".similarity");
    read(similar, "min_tokens", r.similarity.min_tokens, top + ".similarity");
    read(similar, "pairs", r.similarity.pairs, top + ".similarity");
    if (!(r.similarity.threshold > 0 && r.similarity.threshold <= 1))
        throw RubricError(top + ".similarity.threshold must be above 0 and at most 1");
    return r;
}

std::string grading_text(const std::string& rubric_text) {
    json doc = json::parse(rubric_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !(doc.contains("slurm") || doc.contains("similarity"))) return rubric_text;
    doc.erase("slurm");
    doc.erase("similarity");
    return doc.dump();
}

}  // namespace grader
