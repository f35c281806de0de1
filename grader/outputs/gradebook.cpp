// A batch's gradebooks (gradebook.hpp): gradebook.csv, one row per student,
// and with a roster the LMS files (lms.hpp).
#include "grader/outputs/gradebook.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "grader/core/files.hpp"
#include "grader/outputs/batch_notes.hpp"
#include "grader/outputs/csv.hpp"
#include "grader/outputs/lms.hpp"
#include "grader/outputs/outputs.hpp"
#include "grader/outputs/outputs_detail.hpp"

namespace grader {

namespace {

// "2 students" / "1 student".
std::string students(std::size_t n) { return std::to_string(n) + (n == 1 ? " student" : " students"); }

}  // namespace

std::string gradebook_csv(const std::vector<Report>& reports) {
    std::vector<std::string> labs;
    if (!reports.empty())
        for (const LabResult& lab : reports[0].labs) labs.push_back(lab.lab);
    const std::vector<std::string> run_wide = run_wide_notes(reports);
    std::vector<std::string> header{"student"};
    header.insert(header.end(), labs.begin(), labs.end());
    header.insert(header.end(), {"total", "max", "percent", "flags", "notes"});
    std::string out = csv_row(header);
    for (const Report& r : reports) {
        std::vector<std::string> row{r.submission};
        for (const std::string& id : labs) {
            const auto lab =
                std::find_if(r.labs.begin(), r.labs.end(), [&](const LabResult& l) { return l.lab == id; });
            // A lab with nothing gradable here (one that needs a GPU) scored no zero.
            row.push_back(lab == r.labs.end() ? "" : lab->gradable() ? format_points(lab->score()) : "n/a");
        }
        std::string flags = r.refused.empty() ? "" : "not graded: " + r.refused;
        for (const std::string& flag : r.flags) flags += (flags.empty() ? "" : "; ") + flag;
        for (const LabResult& lab : r.labs)
            if (!lab.emulator_limits.empty())
                flags += (flags.empty() ? "" : "; ") + lab.lab +
                         (lab.gradable() ? ": graded on the GPU only (emulator limit)" : ": needs a GPU to grade (emulator limit)");
        row.insert(row.end(), {format_points(r.score()), format_points(r.max_score()),
                               format_points(percent(r.score(), r.max_score())), flags, student_notes(r, run_wide)});
        out += csv_row(row);
    }
    return out;
}

BatchBook write_gradebook(const std::vector<Report>& reports, const std::string& out,
                          const std::vector<RosterStudent>* roster, const std::string& assignment) {
    write_file(out + "/gradebook.csv", gradebook_csv(reports));
    BatchBook book;
    // What held for every student, once: where and how the batch ran (Slurm
    // nodes may differ: each with its count), then the run-wide notes.
    std::map<std::string, std::size_t> environments;
    for (const Report& r : reports)
        if (graded_here(r)) ++environments[environment(r)];
    for (const auto& [where, n] : environments)
        book.summary += (environments.size() == 1 ? std::string("every student") : students(n)) + ": graded with " + where + "\n";
    for (const std::string& note : run_wide_notes(reports)) book.summary += "every student: " + note + "\n";
    char line[512];
    for (const Report& r : reports) {
        std::snprintf(line, sizeof line, "%-32s %7.2f / %.2f\n", r.submission.c_str(), r.score(), r.max_score());
        book.summary += line;
    }
    book.files = out + "/gradebook.csv";
    if (!roster) return book;
    const ClassList list = class_list(*roster, reports);
    const std::string column = assignment.empty() ? lms_assignment(reports) : assignment;
    write_file(out + "/canvas.csv", canvas_csv(list, column));
    write_file(out + "/moodle.csv", moodle_csv(list, column));
    std::string names;
    for (const std::string& name : list.not_in_roster) names += name + "\n";
    write_file(out + "/not-in-roster.txt", names);
    book.files += ", " + out + "/canvas.csv, " + out + "/moodle.csv, " + out + "/not-in-roster.txt";
    std::vector<std::string> missing;
    for (const LmsRow& row : list.rows)
        if (!row.submitted) missing.push_back(row.student.submission);
    book.summary += "canvas.csv, moodle.csv: " + students(list.rows.size()) + " of the roster, grade column \"" + column +
                    "\" (percent of the points graded)";
    book.summary += missing.empty() ? "\n" : "; " + std::to_string(missing.size()) + " with no submission, 0: " +
                                                 joined(missing, ", ") + "\n";
    if (!list.not_in_roster.empty())
        book.warnings.push_back(std::to_string(list.not_in_roster.size()) +
                                " submission(s) not in the roster, left out of canvas.csv and moodle.csv (their rows "
                                "are in gradebook.csv; listed in " + out + "/not-in-roster.txt): " +
                                joined(list.not_in_roster, ", "));
    return book;
}

}  // namespace grader
