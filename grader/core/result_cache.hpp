// The result cache: a lab graded on the emulator alone comes out the same for
// the same scan.cu, kit, grader and rubric (datasets come from the rubric's
// seeds, the emulator's block orders from fixed ones), so a later grading of
// those takes the earlier result instead of building and running the lab
// again: a class's untouched stubs, the labs a resubmission did not change,
// a regrade into another --out, the kit's own tests grading the same corpus
// in several places. Never a GPU's result (its runs can differ from one to
// the next and timing is measured anew), nor one a timeout decided (that
// depends on how loaded the machine was).
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "grader/core/report.hpp"

namespace grader {

class ResultCache {
public:
    ResultCache() = default;  // off
    // dir: one file per lab result; salt: what every key shares (the grader,
    // the kit, the rubric, the backends: resume.hpp's cache_salt).
    ResultCache(std::string dir, std::string salt) : dir_(std::move(dir)), salt_(std::move(salt)) {}
    bool on() const { return !dir_.empty(); }
    const std::string& dir() const { return dir_; }

    std::string key(const std::string& lab, const std::string& source) const;
    // The result stored under key; nothing when there is none or it cannot be read.
    std::optional<LabResult> find(const std::string& key) const;
    // Best effort: a cache that cannot be written costs the next grading time, not this one's result.
    void store(const std::string& key, const LabResult& lab) const;

private:
    std::string dir_, salt_;
};

// A component as JSON and back (nlohmann's converters: json(c), j.get<Component>()),
// as the result cache and a batch's grade.json records hold it.
void to_json(nlohmann::json& j, const Component& c);
void from_json(const nlohmann::json& j, Component& c);

// A lab's result as JSON and back, everything its results files are written
// from but the GPU's timing; lab_from_json throws nlohmann::json::exception
// on a malformed one.
nlohmann::json lab_to_json(const LabResult& lab);
nlohmann::json limits_to_json(const std::vector<simt::Limit>& limits);
std::vector<simt::Limit> limits_from_json(const nlohmann::json& j);
LabResult lab_from_json(const nlohmann::json& j);

}  // namespace grader
