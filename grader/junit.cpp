// junit.xml: JUnit XML for CI test reports.
#include <cstdio>

#include "outputs.hpp"
#include "outputs_detail.hpp"

namespace grader {

namespace {

std::string time_attribute(double seconds) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " time=\"%.3f\"", seconds);
    return buf;
}

}  // namespace

std::string junit_xml(const Report& r) {
    struct Counts {
        std::size_t tests = 0, failures = 0, skipped = 0;
        double seconds = 0;
        std::string attributes() const {
            return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
                   "\" skipped=\"" + std::to_string(skipped) + "\"" + time_attribute(seconds);
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
        suites += "  <testsuite name=\"" + xml_escape(lab.lab) + "\"" + suite.attributes() + ">\n" + cases +
                  "  </testsuite>\n";
        all.add(suite);
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + xml_escape("scan-labs: " + r.submission) +
           "\"" + all.attributes() + ">\n" + suites + "</testsuites>\n";
}

}  // namespace grader
