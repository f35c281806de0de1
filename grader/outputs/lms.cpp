// canvas.csv and moodle.csv (lms.hpp), from the layouts their imports document:
//
// Canvas: the Instructor Guide's "How do I import grades in the Gradebook?"
// (community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807),
// as a Canvas school's guide spells it out
// (teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades):
// the columns Student, ID, SIS User ID, SIS Login ID and Section, of which
// the student's name (or ID, or SIS User ID) and the SIS Login ID identify
// the student, then one column per assignment; a column whose name Canvas
// does not know becomes a new assignment. Canvas's CSV rules
// (developerdocs.instructure.com/services/canvas/sis/file.sis_csv): a header
// row, RFC 4180 quoting, UTF-8. Canvas's export writes, and its import
// reads, a "Points Possible" row right after the header, which gives a new
// assignment its points.
//
// Moodle: "Grade import" (docs.moodle.org/311/en/Grade_import): the import
// maps one column ("Map from") to a user field ("Map to": username, email,
// ID number or user id) and each other column to a grade item, a new grade
// item or an item's feedback; feedback imported without its grade clears
// the grade, so both are given. A row whose user is not found stops the
// whole import (grade/import/csv/classes/load_data.php,
// prepare_import_grade_data), which is why a submission outside the roster
// is never written there and every roster line needs an lms_id. Its CSV
// reader is PHP's fgetcsv (lib/csvlib.class.php), whose escape character,
// the backslash, keeps a quote after it from closing a field: a note ending
// in a backslash took the rest of the file into one field, and Moodle
// refused the import (course/tests/moodle_import.py replicates it).
#include "grader/outputs/lms.hpp"

#include <map>

#include "catalog.hpp"
#include "grader/core/files.hpp"
#include "grader/outputs/batch_notes.hpp"
#include "grader/outputs/csv.hpp"
#include "grader/outputs/outputs.hpp"
#include "grader/outputs/outputs_detail.hpp"

namespace grader {

ClassList class_list(const std::vector<RosterStudent>& roster, const std::vector<Report>& reports) {
    const std::vector<std::string> run_wide = run_wide_notes(reports);
    std::map<std::string, const Report*> by_name;  // in lower case; the batch names no two alike in any case
    for (const Report& r : reports) by_name.emplace(lower_case(r.submission), &r);
    ClassList list;
    for (const RosterStudent& s : roster) {
        LmsRow row{s, false, "0", "no submission"};
        const auto it = by_name.find(lower_case(s.submission));
        if (it != by_name.end()) {
            const Report& r = *it->second;
            row = {s, true, format_points(percent(r.score(), r.max_score())), student_notes(r, run_wide)};
            by_name.erase(it);
        }
        list.rows.push_back(row);
    }
    for (const Report& r : reports)
        if (by_name.count(lower_case(r.submission))) list.not_in_roster.push_back(r.submission);
    return list;
}

std::string lms_assignment(const std::vector<Report>& reports) {
    if (reports.empty()) return "scan-labs";
    const std::vector<LabResult>& labs = reports[0].labs;
    if (labs.size() == 1) return labs[0].lab;
    if (labs.size() == catalog::labs().size()) return "scan-labs";
    std::string out;
    for (const LabResult& lab : labs) out += (out.empty() ? "" : " + ") + lab.lab;
    return out;
}

std::string canvas_csv(const ClassList& list, const std::string& assignment) {
    // The BOM: a spreadsheet opening the file reads it as UTF-8 only with one
    // (Müller, not MÃ¼ller), and saves it back so.
    std::string out = "\xEF\xBB\xBF" + csv_row({"Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment});
    // The grade is a percent: the assignment a new column creates is worth 100.
    out += csv_row({"Points Possible", "", "", "", "", "100"});
    for (const LmsRow& row : list.rows) out += csv_row({row.student.name, "", "", row.student.lms_id, "", row.grade});
    return out;
}

namespace {

// A field as PHP's fgetcsv reads it back: a space after each backslash
// that a quote, or the field's end (its closing quote), would follow.
std::string php_field(std::string s) {
    for (std::size_t i = 0; i < s.size(); ++i)
        if (s[i] == '\\' && (i + 1 == s.size() || s[i + 1] == '"')) s.insert(++i, " ");
    return s;
}

}  // namespace

std::string moodle_csv(const ClassList& list, const std::string& assignment) {
    std::string out = csv_row({"Username", "Full name", php_field(assignment), php_field(assignment + " (feedback)")});
    for (const LmsRow& row : list.rows)
        out += csv_row({php_field(row.student.lms_id), php_field(row.student.name), row.grade, php_field(row.feedback)});
    return out;
}

}  // namespace grader
