// result.json for Classroom 50 (foundation50/classroom50), the successor of
// GitHub Classroom: schema "classroom50/result/v1", the file its autograde
// workflow publishes as an asset of the submission's submit/* release and its
// collect-scores workflow reads into the gradebook. Its source's
// schemas/result-v1.schema.json and the validate_result of
// cli/gh-teacher/skeleton/dotgithub/scripts/runner.py and collect_scores.py
// define it: the submission's identity (classroom, assignment, owner, ...),
// then whole points: score and max-score non-negative integers with
// score <= max-score, and tests[], each a test-name, passed, score and
// max-score (integers again) and any further fields.
#pragma once

#include <string>

#include "grader/core/report.hpp"

namespace grader {

// Who and what was graded: Classroom 50 knows it, the grader does not. Its
// runner hands an autograder these environment variables (runner.py,
// run_entrypoint), and course/github's workflows set the same ones.
struct Classroom50Identity {
    std::string classroom, assignment;  // CLASSROOM, ASSIGNMENT: the classroom's short name, the assignment's slug
    std::string owner;                  // OWNER: the repository's student (<classroom>-<assignment>-<owner>)
    std::string assignment_type;        // ASSIGNMENT_TYPE: "individual" or "group"
    std::string submission;             // SUBMISSION_TAG: "submit/<UTC time>-<short sha>"
    std::string commit, release, review;  // COMMIT_URL, RELEASE_URL, REVIEW_URL (review: the commit's when unset)
    // Both UTC, YYYY-MM-DDTHH:MM:SSZ. datetime: the submission's instant,
    // the graded commit's committer date, the same on every regrade (Classroom
    // 50's collect_scores marks a result late from it; the schema requires
    // it); the grading time where none is known. graded_at: the grading's time.
    std::string datetime, graded_at;
};

// From the environment; each unset one "local" (owner: the report's
// submission; assignment_type "individual"; submission "submit/local"), so
// a grading outside Classroom 50 still writes a valid file. datetime is the
// report's submitted_at, else the grading time (then equal to graded_at).
Classroom50Identity classroom50_identity(const Report& report);

// An ISO 8601 instant with its offset (2026-09-01T14:00:05+02:00, git's %cI;
// ...Z; +0200; fractions of a second dropped) as UTC YYYY-MM-DDTHH:MM:SSZ;
// "" where it is not one.
std::string utc_instant(const std::string& iso);

// Whole points per lab component, each a test: "02-brent-kung correctness".
// A component's points are rounded to the nearest whole point (not to full
// marks unless earned); the totals are the tests' sums. A component not
// gradable here (timing without a GPU) is a passed test of 0 points, as in
// results.json.
std::string classroom50_json(const Report& report, const Classroom50Identity& who);

}  // namespace grader
