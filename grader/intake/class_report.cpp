#include "grader/intake/class_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "grader/core/files.hpp"
#include "grader/intake/similarity.hpp"
#include "grader/intake/submission.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace grader {

namespace {

// A file of the student's folder, parsed; null where it is missing or not JSON.
json read_json_file(const fs::path& path) {
    std::ifstream in(path);
    if (!in) return nullptr;
    return json::parse(in, nullptr, false);
}

struct Student {
    std::string folder;        // OUT/<folder>/: its report.html's link
    json grade, results, sarif;
};

std::vector<Student> read_students(const std::string& out) {
    if (out.empty() || !fs::is_directory(out))
        throw ClassReportError(out.empty() ? "give the results folder" : "no such folder: " + out);
    std::vector<Student> students;
    for (const auto& entry : fs::directory_iterator(out)) {
        if (!entry.is_directory()) continue;
        json grade = read_json_file(entry.path() / "grade.json");
        if (!grade.is_object() || !grade.contains("submission")) continue;  // not a student's folder, or unfinished
        students.push_back({entry.path().filename().string(), std::move(grade), read_json_file(entry.path() / "results.json"),
                            read_json_file(entry.path() / "results.sarif")});
    }
    if (students.empty())
        throw ClassReportError("no student results in " + out + " (no " + out +
                               "/<student>/grade.json): scan-grade --batch FOLDER --out " + out + " writes them");
    std::sort(students.begin(), students.end(), [](const Student& a, const Student& b) { return a.folder < b.folder; });
    return students;
}

double quantile(const std::vector<double>& sorted, double p) {
    const double at = p * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(at));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

// Counts of `values` in `bins` equal bins over [lo, hi], hi in the last.
std::vector<int> histogram(const std::vector<double>& values, double lo, double hi, int bins) {
    std::vector<int> counts(static_cast<std::size_t>(bins), 0);
    const double width = hi > lo ? (hi - lo) / bins : 1;
    for (double v : values) {
        const int b = std::clamp(static_cast<int>(std::floor((v - lo) / width)), 0, bins - 1);
        ++counts[static_cast<std::size_t>(b)];
    }
    return counts;
}

// A distribution: its summary and histogram over [lo, hi].
json distribution(const std::vector<double>& values, double lo, double hi) {
    json d = summary_stats(values);
    d["lo"] = lo;
    d["hi"] = hi;
    d["histogram"] = histogram(values, lo, hi, 10);
    return d;
}

// "lab02 correctness: section" -> "section"; "" where the test is not correctness's.
std::string correctness_class(const std::string& name) {
    const std::string key = "correctness: ";
    const auto at = name.find(key);
    return at == std::string::npos ? "" : name.substr(at + key.size());
}

// The number after `before` at the start of each line holding `key`: a test
// output's "fn: SIMT efficiency 81.2% against the reference's 90.0%" (score.cpp's divergence_line),
// "fn: 1.234x the reference's time" (scorer_timing.cpp).
std::vector<double> numbers_after(const std::string& text, const std::string& before) {
    std::vector<double> found;
    for (std::size_t at = text.find(before); at != std::string::npos; at = text.find(before, at + 1))
        found.push_back(std::strtod(text.c_str() + at + before.size(), nullptr));
    return found;
}

std::string collapse_spaces(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            if (!out.empty() && out.back() != ' ') out += ' ';
        } else out += c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

std::string example_name(std::size_t k) {  // "student A", ..., "student Z", "student AA"
    std::string letters;
    for (std::size_t n = k + 1; n > 0; n = (n - 1) / 26) letters.insert(letters.begin(), static_cast<char>('A' + (n - 1) % 26));
    return "student " + letters;
}

// Each student's flags for the instructor: refused, graded on the GPU only
// or not at all, files taken by a rule (misnamed, duplicates).
std::vector<std::string> flags_of(const json& grade) {
    std::vector<std::string> why;
    if (const std::string refused = grade.value("refused", ""); !refused.empty()) {
        std::string line = "refused: " + refused;
        const auto notes = grade.value("notes", std::vector<std::string>{});
        if (!notes.empty()) line += " (" + notes.front() + ")";
        why.push_back(line);
    }
    for (const json& lab : grade.value("labs", json::array())) {
        if (!lab.contains("emulator_limits") || lab["emulator_limits"].empty()) continue;
        bool gradable = false;
        for (const json& c : lab.value("components", json::array())) gradable = gradable || c.value("gradable", false);
        why.push_back("lab " + lab.value("lab", "") + (gradable ? ": graded on the GPU only" : ": needs a GPU to grade"));
    }
    for (const std::string& flag : grade.value("flags", std::vector<std::string>{})) why.push_back(flag);
    return why;
}

}  // namespace

json summary_stats(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    if (values.empty()) return {{"count", 0}, {"min", 0}, {"q1", 0}, {"median", 0}, {"q3", 0}, {"max", 0}};
    return {{"count", values.size()},      {"min", values.front()},       {"q1", quantile(values, 0.25)},
            {"median", quantile(values, 0.5)}, {"q3", quantile(values, 0.75)}, {"max", values.back()}};
}

json class_data(const std::string& out) {
    const std::vector<Student> students = read_students(out);
    std::size_t refused = 0;
    bool gpu = false;
    // (lab, component) -> the points of each student graded on it, and its maximum.
    std::map<std::pair<std::string, std::string>, std::pair<double, std::vector<double>>> scores;
    // (lab, dataset) -> students passed, students graded.
    std::map<std::pair<std::string, std::string>, std::pair<int, int>> datasets;
    std::map<std::string, std::vector<double>> ratios, efficiency;  // per lab
    struct Group {
        std::string lab, rule, name, line;
        std::set<std::string> students;
        json examples = json::array();
    };
    std::map<std::tuple<std::string, std::string, std::string>, Group> findings;
    json flagged = json::array();

    // Several uploads of one student, each graded (the rubric's intake.duplicates
    // "grade"): batch.hpp names their folders by their whole file names.
    std::map<std::string, std::vector<std::string>> uploads;
    for (const Student& s : students) uploads[lower_case(submission_name(s.folder))].push_back(s.folder);
    for (const Student& s : students) {
        const json& g = s.grade;
        const bool was_refused = !g.value("refused", "").empty();
        refused += was_refused;
        gpu = gpu || g.value("backend", "") == "cuda";
        // A refused upload's labs are recorded at 0 (ungradable()): no score of the class's.
        for (const json& lab : was_refused ? json::array() : g.value("labs", json::array()))
            for (const json& c : lab.value("components", json::array())) {
                if (!c.value("gradable", false)) continue;
                auto& [most, values] = scores[{lab.value("lab", ""), c.value("name", "")}];
                most = std::max(most, c.value("max_score", 0.0));
                values.push_back(c.value("score", 0.0));
            }
        std::vector<std::string> why = flags_of(g);
        if (const auto& mine = uploads[lower_case(submission_name(s.folder))]; mine.size() > 1 && !was_refused) {
            std::string files;
            for (const std::string& f : mine) files += (files.empty() ? "" : ", ") + f;
            why.push_back("one of " + std::to_string(mine.size()) + " uploads of one student, each graded: " + files);
        }
        if (!why.empty())
            flagged.push_back({{"student", g.value("submission", s.folder)}, {"why", why}, {"folder", s.folder}, {"report", s.folder + "/report.html"}});

        // Per test: a public dataset class passes where its test does; a
        // hidden dataset, as the student sees it numbered ("hidden dataset 2
        // of lab 02"), where no function's run of it failed.
        std::map<std::pair<std::string, std::string>, bool> passed;
        for (const json& t : s.results.is_object() ? s.results.value("tests", json::array()) : json::array()) {
            const auto tags = t.value("tags", std::vector<std::string>{});
            if (tags.size() < 2) continue;
            const std::string& lab = tags[0];
            const std::string output = t.value("output", "");
            if (tags[1] == "timing") {
                // "fn: 1.234x the reference's time": the ratio follows the ": " before it.
                for (std::size_t at = output.find("x the reference's time"); at != std::string::npos;
                     at = output.find("x the reference's time", at + 1)) {
                    const std::size_t start = output.rfind(": ", at);
                    if (start != std::string::npos) ratios[lab].push_back(std::strtod(output.c_str() + start + 2, nullptr));
                }
            } else if (tags[1] == "divergence") {
                const auto got = numbers_after(output, "SIMT efficiency ");
                const auto ref = numbers_after(output, "against the reference's ");
                for (std::size_t k = 0; k < std::min(got.size(), ref.size()); ++k)
                    if (ref[k] > 0) efficiency[lab].push_back(100 * got[k] / ref[k]);
            } else if (tags[1] == "correctness") {
                const std::string cls = correctness_class(t.value("name", ""));
                if (cls.empty()) continue;
                if (cls.rfind("hidden", 0) != 0) {
                    passed[{lab, "public: " + cls}] = t.value("status", "") == "passed";
                    continue;
                }
                std::istringstream lines(output);
                for (std::string line; std::getline(lines, line);) {
                    const bool ok = line.rfind("ok    hidden dataset ", 0) == 0, fail = line.rfind("FAIL  hidden dataset ", 0) == 0;
                    if (!ok && !fail) continue;
                    std::string what = line.substr(6);
                    const auto lab_at = what.find(" of lab ");
                    if (lab_at == std::string::npos) continue;
                    what = what.substr(0, lab_at + 8 + 2);  // "hidden dataset k of lab NN", less " on the GPU: ..."
                    const auto key = std::make_pair(lab, what);
                    passed[key] = (passed.count(key) ? passed[key] : true) && ok;
                }
            }
        }
        for (const auto& [key, ok] : passed) {
            auto& [pass, of] = datasets[key];
            pass += ok;
            ++of;
        }

        // Findings, each bug of a student's once (results.sarif), grouped by
        // kind and the source line it points at.
        if (!s.sarif.is_object()) continue;
        for (const json& run : s.sarif.value("runs", json::array())) {
            const json rules = run.value("tool", json::object()).value("driver", json::object()).value("rules", json::array());
            for (const json& r : run.value("results", json::array())) {
                const std::string rule = r.value("ruleId", "");
                std::string name = rule;
                for (const json& x : rules)
                    if (x.value("id", "") == rule) name = x.value("name", rule);
                const json loc = r.value("locations", json::array()).empty() ? json::object() : r["locations"][0];
                const json region = loc.value("physicalLocation", json::object()).value("region", json::object());
                const std::string file = loc.value("physicalLocation", json::object()).value("artifactLocation", json::object()).value("uri", "");
                const std::string line = collapse_spaces(region.value("snippet", json::object()).value("text", ""));
                const std::string lab = r.value("properties", json::object()).value("lab", "");
                Group& group = findings[{lab, rule, line.empty() ? file + ":" + std::to_string(region.value("startLine", 0)) : line}];
                group.lab = lab;
                group.rule = rule;
                group.name = name;
                group.line = line;
                const std::string student = g.value("submission", s.folder);
                if (!group.students.insert(student).second || group.examples.size() >= 2) continue;
                group.examples.push_back({{"student", example_name(group.examples.size())},
                                          {"file", file},
                                          {"line", region.value("startLine", 0)},
                                          {"message", r.value("message", json::object()).value("text", "")}});
            }
        }
    }

    json score_list = json::array();
    // Each lab's components in the rubric's order, as the table of scores shows them.
    const auto rank = [](const std::string& c) {
        const std::vector<std::string> order = {"build", "correctness", "safety", "divergence", "timing"};
        return std::find(order.begin(), order.end(), c) - order.begin();
    };
    std::vector<std::pair<std::string, std::string>> keys;
    for (const auto& [key, v] : scores) keys.push_back(key);
    std::stable_sort(keys.begin(), keys.end(), [&](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : rank(a.second) < rank(b.second);
    });
    for (const auto& key : keys) {
        const auto& v = scores[key];
        json d = distribution(v.second, 0, v.first);
        d["lab"] = key.first;
        d["component"] = key.second;
        d["max_score"] = v.first;
        score_list.push_back(d);
    }
    json dataset_list = json::array();
    for (const auto& [key, v] : datasets)
        dataset_list.push_back({{"lab", key.first}, {"dataset", key.second}, {"passed", v.first}, {"graded", v.second},
                                {"share", v.second ? static_cast<double>(v.first) / v.second : 0.0}});
    std::stable_sort(dataset_list.begin(), dataset_list.end(),
                     [](const json& a, const json& b) { return a["share"].get<double>() < b["share"].get<double>(); });
    std::vector<Group> groups;
    for (auto& [key, group] : findings) groups.push_back(std::move(group));
    std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.students.size() > b.students.size(); });
    json finding_list = json::array();
    for (const Group& group : groups)
        finding_list.push_back({{"lab", group.lab}, {"rule", group.rule}, {"kind", group.name}, {"line", group.line},
                                {"students", group.students.size()}, {"examples", group.examples}});
    json timing = {{"gpu", gpu}, {"labs", json::array()}};
    for (const auto& [lab, v] : ratios) {
        json d = distribution(v, 0, std::max(3.0, *std::max_element(v.begin(), v.end())));
        d["lab"] = lab;
        timing["labs"].push_back(d);
    }
    json divergence = json::array();
    for (const auto& [lab, v] : efficiency) {
        json d = distribution(v, 0, std::max(100.0, *std::max_element(v.begin(), v.end())));
        d["lab"] = lab;
        divergence.push_back(d);
    }
    return {{"students", students.size()}, {"graded", students.size() - refused}, {"refused", refused},
            {"scores", score_list}, {"datasets", dataset_list}, {"findings", finding_list},
            {"timing", timing}, {"divergence", divergence}, {"flagged", flagged}};
}

std::string whole_percent(double share) { return std::to_string(static_cast<int>(std::lround(100 * share))) + "%"; }

void add_similarity(json& data, const json& similarity) {
    data["similarity"] = similarity;
    if (similarity.value("status", "") != "on") return;
    std::map<std::string, std::vector<std::string>> why;  // folder -> lines
    const auto names = [](const json& students, const std::string& but) {
        std::string list;
        for (const std::string s : students)
            if (s != but) list += (list.empty() ? "" : ", ") + s;
        return list;
    };
    for (const json& lab : similarity.value("labs", json::array())) {
        const std::string id = lab.value("lab", "");
        for (const json& group : lab.value("identical", json::array()))
            for (const std::string s : group["students"])
                why[s].push_back("code identical in lab " + id + " to " + names(group["students"], s));
        for (const json& pair : lab.value("pairs", json::array())) {
            if (!pair.value("flagged", false)) continue;
            const std::string line = "code alike in lab " + id + ": " + whole_percent(pair.value("similarity", 0.0)) + " (" +
                                     std::to_string(pair.value("tokens", 0)) + " tokens) with ";
            for (const std::string s : pair["a"]) why[s].push_back(line + names(pair["b"], s));
            for (const std::string s : pair["b"]) why[s].push_back(line + names(pair["a"], s));
        }
    }
    for (json& f : data["flagged"])
        if (const auto it = why.find(f.value("folder", "")); it != why.end()) {
            for (const std::string& w : it->second) f["why"].push_back(w);
            why.erase(it);
        }
    for (const auto& [folder, lines] : why)
        data["flagged"].push_back({{"student", folder}, {"why", lines}, {"folder", folder}, {"report", folder + "/report.html"}});
}

std::string write_class_report(const std::string& out, const ClassReportSettings& settings) {
    json data = class_data(out);
    add_similarity(data, similarity_check(out, settings.kit, settings.similarity));
    if (data["similarity"].value("status", "") != "on")
        std::fprintf(stderr, "scan-grade: the class report's similarity check is off: %s\n",
                     data["similarity"].value("why", "").c_str());
    write_file(out + "/class.json", data.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
    write_file(out + "/class.html", class_html(data, [&](const std::string& folder, const std::string& lab) {
                   const fs::path file = fs::path(out) / folder / "code" / lab / "scan.cu";
                   return fs::is_regular_file(file) ? read_file(file.string()) : std::string();
               }));
    return out + "/class.json, " + out + "/class.html";
}

std::string class_report_after_batch(const std::string& out, const ClassReportSettings& settings) {
    try {
        return ", " + write_class_report(out, settings);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scan-grade: warning: no class report: %s\n", e.what());
        return "";
    }
}

int report_main(const std::vector<std::string>& args, const std::string& default_kit) {
    std::string out, rubric_path;
    ClassReportSettings settings{default_kit, {}};
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::puts("usage: scan-grade report OUT [--kit DIR] [--rubric FILE]\n"
                      "writes OUT/class.json and OUT/class.html, the class at a glance, from every\n"
                      "OUT/<student>/grade.json, results.json and results.sarif that scan-grade --batch wrote\n"
                      "(nothing is graded again), and OUT/similarity.json: code alike across the class, from\n"
                      "OUT/<student>/code/, with copydetect where it is installed (the rubric's \"similarity\").\n"
                      "--kit: the kit whose stubs and reference are the base code; --rubric: the rubric\n"
                      "(default: the kit's grader/rubric.json).\n"
                      "exit status: 0 written, 1 no student results in OUT, 2 bad usage, no such folder or a bad rubric");
            return 0;
        }
        if ((a == "--kit" || a == "--rubric") && i + 1 < args.size()) {
            (a == "--kit" ? settings.kit : rubric_path) = args[++i];
            continue;
        }
        if (a.empty() || a[0] == '-' || !out.empty()) {
            std::fprintf(stderr, "scan-grade report: unknown argument %s (scan-grade report --help)\n", a.c_str());
            return 2;
        }
        out = a;
    }
    if (out.empty() || !fs::is_directory(out)) {
        std::fprintf(stderr, "scan-grade report: %s (scan-grade report --help)\n",
                     out.empty() ? "give the results folder" : ("no such folder: " + out).c_str());
        return 2;
    }
    try {
        settings.similarity = load_rubric(rubric_path.empty() ? settings.kit + "/grader/rubric.json" : rubric_path).similarity;
    } catch (const RubricError& e) {
        std::fprintf(stderr, "scan-grade report: %s\n", e.what());
        return 2;
    }
    try {
        std::printf("the class at a glance: %s\n", write_class_report(out, settings).c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scan-grade report: %s\n", e.what());
        return 1;
    }
    return 0;
}

}  // namespace grader
