// write_all (outputs.hpp): each format's file: table.txt and feedback.txt
// (feedback_text.cpp), results.json (gradescope.cpp), prairielearn.json
// (prairielearn.cpp), junit.xml (junit.cpp), summary.md
// (markdown_summary.cpp), results.sarif (sarif.cpp), result.json
// (classroom50.cpp), report.html (report_html.cpp); the gradebook is
// gradebook.cpp's. Its own file, above the formats it calls, so that the
// pieces they share (outputs.cpp) include none of them.
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "grader/core/files.hpp"
#include "grader/outputs/classroom50.hpp"
#include "grader/outputs/outputs.hpp"
#include "grader/outputs/report_html.hpp"

namespace grader {

void write_all(const Report& r, const std::string& directory) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) throw std::runtime_error("cannot create directory " + directory + ": " + error.message());
    const std::pair<const char*, std::string> files[] = {
        {"results.json", gradescope_json(r)}, {"prairielearn.json", prairielearn_json(r)},
        {"junit.xml", junit_xml(r)},          {"summary.md", markdown_summary(r)},
        {"results.sarif", sarif_json(r)},
        {"feedback.txt", feedback_text(r)},   {"table.txt", terminal_table(r, false)},
        {"phases.json", phases_json(r)},      {"report.html", report_html(r)},
        {"result.json", classroom50_json(r, classroom50_identity(r))}};
    for (const auto& [name, text] : files) write_file((std::filesystem::path(directory) / name).string(), text);
}

}  // namespace grader
