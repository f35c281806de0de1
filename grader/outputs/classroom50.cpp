#include "grader/outputs/classroom50.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <regex>

#include <nlohmann/json.hpp>

#include "grader/outputs/outputs.hpp"

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

std::string utc_instant(const std::string& iso) {
    static const std::regex form(R"((\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d+)?(Z|([+-])(\d\d):?(\d\d)))");
    std::smatch m;
    if (!std::regex_match(iso, m, form)) return "";
    const auto n = [&](int k) { return std::stoi(m[k].str()); };
    std::tm tm{};
    tm.tm_year = n(1) - 1900, tm.tm_mon = n(2) - 1, tm.tm_mday = n(3);
    tm.tm_hour = n(4), tm.tm_min = n(5), tm.tm_sec = n(6);
    if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
        return "";
    std::time_t t = timegm(&tm);
    if (m[7] != "Z") {
        if (n(9) > 23 || n(10) > 59) return "";
        const long offset = 3600L * n(9) + 60L * n(10);
        t += m[8] == "+" ? -offset : offset;
    }
    std::tm utc{};
    gmtime_r(&t, &utc);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return buf;
}

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
    who.graded_at = utc_now();
    who.datetime = r.submitted_at.empty() ? who.graded_at : r.submitted_at;
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
    json doc = {{"schema", "classroom50/result/v1"},
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
    if (!who.graded_at.empty()) doc["graded_at"] = who.graded_at;  // optional in the schema
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace grader
