// Code alike across a class (the class report's similarity, class_report.hpp).
// A batch keeps each student's graded lab files in OUT/<student>/code/<lab>/scan.cu;
// the check runs copydetect (PyPI) on them through grader/similarity.py, with
// the lab's stub and the kit's reference as base code, and is off, saying
// how to install it, where copydetect is not installed (grader/README.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grader/core/report.hpp"
#include "grader/core/rubric.hpp"

namespace grader {

// OUT/<student>/code/<lab>/scan.cu of each lab graded from a file of the student's.
void write_graded_code(const Report& report, const std::string& directory);

// {"status": "on", "tool", "threshold", "labs": [...]} as similarity.py
// writes it, or {"status": "off", "why": ...} where the rubric turns it off,
// no student's code was kept, copydetect is missing or the check failed.
// It compares every OUT/<student>/code/. The interpreter is
// $SCAN_GRADE_PYTHON, else python3 on PATH. Writes OUT/similarity.json.
nlohmann::json similarity_check(const std::string& out, const std::string& kit, const SimilaritySettings& settings);

}  // namespace grader
