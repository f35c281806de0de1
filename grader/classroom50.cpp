#include "classroom50.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>

#include <nlohmann/json.hpp>

#include "outputs.hpp"

namespace grader {

namespace {

std::string env_or(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace

Classroom50Identity classroom50_identity(const Report& r) {
    Classroom50Identity who;
    who.classroom = env_or("CLASSROOM", "local");
    who.assignment = env_or("ASSIGNMENT", "local");
    who.owner = env_or("OWNER", r.submission.empty() ? "local" : clean_text(r.submission));
    who.assignment_type = env_or("ASSIGNMENT_TYPE", "individual");
    who.submission = env_or("SUBMISSION_TAG", "submit/local");
    who.commit = env_or("COMMIT_URL", "local");
    who.release = env_or("RELEASE_URL", "local");
    who.review = env_or("REVIEW_URL", who.commit);
    who.datetime = utc_now();
    return who;
}

std::string classroom50_json(const Report& r, const Classroom50Identity& who) {
    using nlohmann::json;
    json tests = json::array();
    long long score = 0, max = 0;
    for (const LabResult& lab : r.labs)
        for (const Component& c : lab.components) {
            json t = {{"test-name", lab.lab + " " + c.name}, {"lab", lab.lab}, {"component", c.name}};
            long long points = 0, most = 0;
            bool passed = true;
            if (c.gradable) {
                most = std::max(0LL, std::llround(c.max_score));
                points = std::clamp(std::llround(c.score), 0LL, most);
                passed = c.score >= c.max_score;
                // Rounding must not show full marks that were not earned.
                if (!passed && points == most && most > 0) --points;
            } else {
                t["test-name"] = lab.lab + " " + c.name + " (not gradable here)";
            }
            t["passed"] = passed;
            t["score"] = points;
            t["max-score"] = most;
            t["message"] = c.gradable ? fraction(c.score, c.max_score) + (c.note.empty() ? "" : ": " + clean_text(c.note))
                                      : c.note.empty() ? "not gradable here" : clean_text(c.note);
            tests.push_back(t);
            score += points;
            max += most;
        }
    const json doc = {{"schema", "classroom50/result/v1"},
                      {"classroom", who.classroom},
                      {"assignment", who.assignment},
                      {"assignment_type", who.assignment_type},
                      {"owner", who.owner},
                      {"submission", who.submission},
                      {"commit", who.commit},
                      {"release", who.release},
                      {"review", who.review},
                      {"datetime", who.datetime},
                      {"score", score},
                      {"max-score", max},
                      {"tests", tests}};
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace grader
