// A finding (finding.hpp) as JSON: every field under its own name, the
// source by name ("emulator", "harness", "sanitizer", "withheld"). The one
// JSON form of a finding: the lab suites' results files (results.hpp) and the
// grader's result cache write it.
#pragma once

#include <nlohmann/json.hpp>

#include "finding.hpp"

namespace finding {

const char* source_name(Source source);

// nlohmann/json's hooks: json(f), j.get<Finding>(), and vectors of them.
// from_json throws nlohmann::json::exception on a missing or mistyped field
// or an unknown source.
void to_json(nlohmann::json& j, const Finding& f);
void from_json(const nlohmann::json& j, Finding& f);

}  // namespace finding
