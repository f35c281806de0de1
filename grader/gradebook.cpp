// gradebook.csv: a batch's gradebook, one row per student.
#include <algorithm>
#include <cstdio>

#include "files.hpp"
#include "outputs.hpp"
#include "outputs_detail.hpp"

namespace grader {

namespace {

// RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled.
std::string csv(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? "\"\"" : std::string(1, c);
    return out + "\"";
}

}  // namespace

std::string gradebook_csv(const std::vector<Report>& reports) {
    std::vector<std::string> labs;
    if (!reports.empty())
        for (const LabResult& lab : reports[0].labs) labs.push_back(lab.lab);
    const auto line = [](const std::vector<std::string>& fields) {
        std::string out;
        for (const std::string& f : fields) out += (out.empty() ? "" : ",") + csv(f);
        return out + "\r\n";
    };
    std::vector<std::string> header{"student"};
    header.insert(header.end(), labs.begin(), labs.end());
    header.insert(header.end(), {"total", "max", "percent", "flags", "notes"});
    std::string out = line(header);
    for (const Report& r : reports) {
        std::vector<std::string> row{r.submission};
        for (const std::string& id : labs) {
            const auto lab =
                std::find_if(r.labs.begin(), r.labs.end(), [&](const LabResult& l) { return l.lab == id; });
            // A lab with nothing gradable here (one that needs a GPU) scored no zero.
            row.push_back(lab == r.labs.end() ? "" : lab->gradable() ? format_points(lab->score()) : "n/a");
        }
        std::string notes, flags = r.refused.empty() ? "" : "not graded: " + r.refused;
        for (const std::string& note : all_notes(r)) notes += (notes.empty() ? "" : "; ") + note;
        for (const std::string& flag : r.flags) flags += (flags.empty() ? "" : "; ") + flag;
        for (const LabResult& lab : r.labs)
            if (!lab.emulator_limits.empty())
                flags += (flags.empty() ? "" : "; ") + lab.lab +
                         (lab.gradable() ? ": graded on the GPU only (emulator limit)" : ": needs a GPU to grade (emulator limit)");
        row.insert(row.end(), {format_points(r.score()), format_points(r.max_score()),
                               format_points(percent(r.score(), r.max_score())), flags, notes});
        out += line(row);
    }
    return out;
}

std::string write_gradebook(const std::vector<Report>& reports, const std::string& out) {
    write_file(out + "/gradebook.csv", gradebook_csv(reports));
    std::string lines;
    char line[256];
    for (const Report& r : reports) {
        std::snprintf(line, sizeof line, "%-32s %7.2f / %.2f\n", r.submission.c_str(), r.score(), r.max_score());
        lines += line;
    }
    return lines;
}

}  // namespace grader
