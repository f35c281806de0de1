// The class at a glance (scan-grade --batch, merge, report): OUT/class.json
// and OUT/class.html, read from the files the batch wrote for each student
// (OUT/<student>/grade.json, results.json, results.sarif); nothing is graded
// again. Quartiles are linear between order statistics (numpy's default).
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grader/core/rubric.hpp"

namespace grader {

// What the report needs beyond the results: the kit (the similarity check's
// base code and script) and the rubric's similarity settings.
struct ClassReportSettings {
    std::string kit;
    SimilaritySettings similarity;
};

// A results folder with no student in it, or none at all.
struct ClassReportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// min, q1, median, q3, max and count of `values` (count 0: an empty object's numbers are 0).
nlohmann::json summary_stats(std::vector<double> values);

// A share (0.653) as the flagged entries and class.html show it: "65%".
std::string whole_percent(double share);

// class.json's content from the folders of `out`. Throws ClassReportError
// where `out` is missing or holds no OUT/<student>/grade.json.
nlohmann::json class_data(const std::string& out);

// A student's graded file of a lab (OUT/<folder>/code/<lab>/scan.cu), "" where none.
using CodeReader = std::function<std::string(const std::string& folder, const std::string& lab)>;

// class.html: one page, inline SVG and CSS, no script, no network. With
// `code`, each similar pair's shared lines side by side.
std::string class_html(const nlohmann::json& data, const CodeReader& code = {});

// Adds the similarity check's result (similarity.hpp) to class_data's: its
// "similarity", and each flagged pair's students to "flagged".
void add_similarity(nlohmann::json& data, const nlohmann::json& similarity);

// Writes OUT/class.json and OUT/class.html (and OUT/similarity.json where the
// check runs); returns "OUT/class.json, OUT/class.html". Says on standard
// error why the similarity check is off, where it is.
std::string write_class_report(const std::string& out, const ClassReportSettings& settings);

// At a batch's or merge's end: ", OUT/class.json, OUT/class.html", or "" with
// why on standard error; the gradebook stands without them.
std::string class_report_after_batch(const std::string& out, const ClassReportSettings& settings);

// scan-grade report OUT [--kit DIR] [--rubric FILE]: 0 written, 1 no student
// results in OUT, 2 bad usage, no such folder or a bad rubric.
int report_main(const std::vector<std::string>& args, const std::string& default_kit);

}  // namespace grader
