// junit.xml: JUnit XML for CI test reports, valid against the junit-10.xsd
// that Jenkins' xunit plugin validates it with (an invalid file stops its
// processing): each testsuite has tests, failures and errors (always 0: a
// grading's failures are the student's), skipped only on a testsuite.
//
// Times are the grader's measurements, never made up: a testcase's time is
// its runs' (TestResult::seconds), left out where none was measured (an
// unmeasured test is not one that took 0 s); a testsuite's the sum of its
// testcases' measured times; testsuites' the whole grading's wall clock
// (Report::seconds), where measured.
#include <cstdio>

#include "grader/outputs/outputs.hpp"
#include "grader/outputs/outputs_detail.hpp"

namespace grader {

namespace {

std::string time_attribute(double seconds) {
    if (seconds <= 0) return "";
    char buf[48];
    std::snprintf(buf, sizeof buf, " time=\"%.3f\"", seconds);
    return buf;
}

}  // namespace

std::string junit_xml(const Report& r) {
    struct Counts {
        std::size_t tests = 0, failures = 0, skipped = 0;
        double seconds = 0;
        std::string counts() const {
            return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"0\"";
        }
        void add(const Counts& c) {
            tests += c.tests, failures += c.failures, skipped += c.skipped, seconds += c.seconds;
        }
    };
    Counts all;
    std::string suites;
    for (const LabResult& lab : r.labs) {
        Counts suite;
        std::string cases;
        for (const TestResult& t : lab.tests) {
            std::string body;
            if (t.status == Status::Failed)
                body = "<failure message=\"score " + fraction(t.score, t.max_score) + "\">" + xml_escape(t.output) +
                       "</failure>";
            else if (!graded(t))
                body = "<skipped message=\"" + xml_escape(test_output(t)) + "\"/>";
            else if (!t.output.empty())
                body = "<system-out>" + xml_escape(t.output) + "</system-out>";
            cases += "    <testcase classname=\"" + xml_escape(lab.lab) + "\" name=\"" + xml_escape(t.name) + "\"" +
                     time_attribute(t.seconds) + (body.empty() ? "/>\n" : ">" + body + "</testcase>\n");
            suite.add({1, t.status == Status::Failed, !graded(t), t.seconds});
        }
        suites += "  <testsuite name=\"" + xml_escape(lab.lab) + "\"" + suite.counts() + " skipped=\"" +
                  std::to_string(suite.skipped) + "\"" + time_attribute(suite.seconds) + ">\n" + cases + "  </testsuite>\n";
        all.add(suite);
    }
    // The schema allows no skipped on testsuites: each testsuite says its own.
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + xml_escape("scan-labs: " + r.submission) +
           "\"" + all.counts() + time_attribute(r.seconds > 0 ? r.seconds : all.seconds) + ">\n" + suites + "</testsuites>\n";
}

}  // namespace grader
