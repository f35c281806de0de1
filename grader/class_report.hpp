// The class at a glance (scan-grade --batch, merge, report): OUT/class.json
// and OUT/class.html, read from the files the batch wrote for each student
// (OUT/<student>/grade.json, results.json, results.sarif); nothing is graded
// again. Quartiles are linear between order statistics (numpy's default).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace grader {

// A results folder with no student in it, or none at all.
struct ClassReportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// min, q1, median, q3, max and count of `values` (count 0: an empty object's numbers are 0).
nlohmann::json summary_stats(std::vector<double> values);

// class.json's content from the folders of `out`. Throws ClassReportError
// where `out` is missing or holds no OUT/<student>/grade.json.
nlohmann::json class_data(const std::string& out);

// class.html: one page, inline SVG and CSS, no script, no network.
std::string class_html(const nlohmann::json& data);

// Writes OUT/class.json and OUT/class.html; returns "OUT/class.json, OUT/class.html".
std::string write_class_report(const std::string& out);

// At a batch's or merge's end: ", OUT/class.json, OUT/class.html", or "" with
// why on standard error; the gradebook stands without them.
std::string class_report_after_batch(const std::string& out);

// scan-grade report OUT: 0 written, 1 no student results in OUT, 2 bad usage or no such folder.
int report_main(const std::vector<std::string>& args);

}  // namespace grader
