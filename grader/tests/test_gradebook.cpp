// The roster, and what a batch writes from it: gradebook.csv's notes, the
// Canvas and Moodle files (their columns against the layouts lms.cpp cites),
// a student with no submission, a submission outside the roster. Canned
// reports (outputs_sample.hpp): nothing is graded.
#include <doctest/doctest.h>
#include <stdlib.h>  // mkdtemp

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "catalog.hpp"
#include "grader/outputs/batch_notes.hpp"
#include "grader/outputs/csv.hpp"
#include "grader/outputs/gradebook.hpp"
#include "grader/outputs/lms.hpp"
#include "grader/outputs/roster.hpp"
#include "grader/tests/outputs_sample.hpp"

using namespace grader;
using namespace grader::testing;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::vector<std::vector<std::string>> rows(const std::string& csv) {
    std::vector<std::vector<std::string>> out;
    for (const CsvRecord& r : parse_csv(csv)) out.push_back(r.fields);
    return out;
}

// The class the golden files hold: the roster, spreadsheet-saved (a
// byte-order mark, CRLF, quoted fields, a column of its own), names Jane and
// O"Neil, who submitted, and Carol, who did not; "zed" submitted unlisted.
const char* const kRoster =
    "\xef\xbb\xbfname,Section,submission,lms_id\r\n"
    "\"Doe, Jane\",A,\"Doe, Jane\",jdoe@example.edu\r\n"
    "\"O\"\"Neil, Pat\",B,\"O\"\"Neil\",poneil\r\n"
    "\"Chen, Carol\",A,carol,cchen\r\n";

std::vector<Report> class_reports() {
    Report oneil = sample("O\"Neil");
    oneil.labs.pop_back();  // 145/180
    oneil.notes.push_back("ignored (only each lab's scan.cu and the headers it includes are graded): notes, draft.txt");
    return {sample(), oneil, sample("zed")};
}

// The golden files: SCAN_GRADE_UPDATE_GOLDEN=1 writes them anew (this test's
// working folder is grader/tests/golden/, as test-outputs').
void check_golden(const std::string& name, const std::string& text) {
    CAPTURE(name);
    if (const char* update = std::getenv("SCAN_GRADE_UPDATE_GOLDEN"); update && *update) {
        std::ofstream(name, std::ios::binary) << text;
        return;
    }
    REQUIRE_MESSAGE(fs::exists(name), "no golden file " << name << ": SCAN_GRADE_UPDATE_GOLDEN=1 writes it");
    CHECK_MESSAGE(text == read(name), name << " differs from grader/tests/golden/" << name
                                          << " (SCAN_GRADE_UPDATE_GOLDEN=1 meson test gradebook writes it anew)");
}

}  // namespace

TEST_CASE("CSV: RFC 4180 quoting both ways, spreadsheet line ends, errors by line") {
    const std::vector<std::string> fields{"plain", "a, comma", "a \"quote\"", "two\nlines", ""};
    CHECK(csv_row(fields) == "plain,\"a, comma\",\"a \"\"quote\"\"\",\"two\nlines\",\r\n");
    const auto back = parse_csv(csv_row(fields) + csv_row({"x", "y"}));
    REQUIRE(back.size() == 2);
    CHECK(back[0].fields == fields);
    CHECK(back[1].line == 3);  // the first record spans lines 1 and 2
    // A byte-order mark, LF or CRLF, a last line without an end, blank rows left out.
    const auto sheet = parse_csv("\xef\xbb\xbf" "a,b\r\n,\r\n\nc,d");
    REQUIRE(sheet.size() == 2);
    CHECK(sheet[0].fields == std::vector<std::string>{"a", "b"});
    CHECK(sheet[1].fields == std::vector<std::string>{"c", "d"});
    CHECK(sheet[1].line == 4);
    CHECK_THROWS_WITH_AS(parse_csv("a,b\nc,\"open\n"), doctest::Contains("not closed"), CsvError);
    try {
        parse_csv("a,b\nc,d\"e\n");
        FAIL("a quote inside an unquoted field was taken");
    } catch (const CsvError& e) {
        CHECK(e.line == 2);
    }
    CHECK_THROWS_AS(parse_csv("\"a\"b,c\n"), CsvError);
}

TEST_CASE("roster: a spreadsheet's file, its columns in any order") {
    const auto roster = parse_roster(kRoster, "roster.csv");
    REQUIRE(roster.size() == 3);
    CHECK(roster[0].submission == "Doe, Jane");
    CHECK(roster[0].lms_id == "jdoe@example.edu");
    CHECK(roster[0].name == "Doe, Jane");
    CHECK(roster[1].submission == "O\"Neil");
    CHECK(roster[1].name == "O\"Neil, Pat");
    CHECK(roster[2].line == 4);
    // Header names in any case, fields trimmed, LF line ends.
    const auto loose = parse_roster("Submission , LMS_ID,Name\n alice ,a1 , Alice A\n", "r.csv");
    REQUIRE(loose.size() == 1);
    CHECK(loose[0].submission == "alice");
    CHECK(loose[0].lms_id == "a1");
    CHECK(loose[0].name == "Alice A");
    CHECK(parse_roster("submission,lms_id,name\r\n", "r.csv").empty());
}

TEST_CASE("roster: a malformed one is refused, its file and line named") {
    const auto refused = [](const std::string& text) {
        try {
            parse_roster(text, "roster.csv");
        } catch (const RosterError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    const std::string header = "submission,lms_id,name\n";
    CHECK(refused("") == "roster.csv: empty; its first line is the header submission,lms_id,name");
    CHECK(refused("submission,login,name\nalice,a1,Alice\n") ==
          "roster.csv line 1: the header has no column lms_id (it needs submission, lms_id and name; it has: "
          "submission, login, name)");
    CHECK(refused("submission,lms_id,name,name\n") == "roster.csv line 1: the header names name twice");
    CHECK(refused(header + "alice,a1,Alice\nbob,b1\n") == "roster.csv line 3: 2 fields where the header has 3");
    CHECK(refused(header + "alice,,Alice\n") == "roster.csv line 2: no lms_id");
    CHECK(refused(header + "alice,a1,Alice\nbob,b1,Bob\nALICE,a2,Alice Again\n") ==
          "roster.csv line 4: submission ALICE is also on line 2");
    CHECK(refused(header + "alice,a1,Alice\nbob,A1,Bob\n") == "roster.csv line 3: lms_id A1 is also on line 2");
    CHECK(refused(header + "alice,a1,\"Alice\n") == "roster.csv line 2: a quoted field is not closed");
    CHECK(refused(header + "alice,a1,\"Ali\"ce\"\n") ==
          "roster.csv line 2: text after a quoted field's closing quote (a quote inside a quoted field is written "
          "twice: \"\")");
    CHECK(refused(header + "bob,b1,\"Bob\nSmith\"\n") == "roster.csv line 2: name is not one line of UTF-8 text (save "
                                                           "the roster as CSV UTF-8)");
    // Latin-1, as a spreadsheet saves it unless told otherwise.
    CHECK(refused(header + "jose,j1,Jos\xe9\n") ==
          "roster.csv line 2: name is not one line of UTF-8 text (save the roster as CSV UTF-8)");
    CHECK_THROWS_WITH_AS(read_roster("/nonexistent/roster.csv"), "cannot read the roster /nonexistent/roster.csv",
                         RosterError);
}

TEST_CASE("Canvas and Moodle files: the documented columns, a row per roster student") {
    const auto roster = parse_roster(kRoster, "roster.csv");
    const std::vector<Report> reports = class_reports();
    const ClassList list = class_list(roster, reports);
    REQUIRE(list.rows.size() == 3);
    CHECK(list.not_in_roster == std::vector<std::string>{"zed"});

    const auto canvas = rows(canvas_csv(list, "Lab 2: Brent-Kung (40125)"));
    REQUIRE(canvas.size() == 5);
    CHECK(canvas[0] == std::vector<std::string>{"Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                                                "Lab 2: Brent-Kung (40125)"});
    CHECK(canvas[1] == std::vector<std::string>{"Points Possible", "", "", "", "", "100"});
    CHECK(canvas[2] == std::vector<std::string>{"Doe, Jane", "", "", "jdoe@example.edu", "", "53.7"});
    CHECK(canvas[3] == std::vector<std::string>{"O\"Neil, Pat", "", "", "poneil", "", "80.56"});
    CHECK(canvas[4] == std::vector<std::string>{"Chen, Carol", "", "", "cchen", "", "0"});  // no submission

    const auto moodle = rows(moodle_csv(list, "Lab 2"));
    REQUIRE(moodle.size() == 4);
    CHECK(moodle[0] == std::vector<std::string>{"Username", "Full name", "Lab 2", "Lab 2 (feedback)"});
    // Only what differs per student: the sandbox, which all three share, is no one's feedback.
    CHECK(moodle[1] == std::vector<std::string>{"jdoe@example.edu", "Doe, Jane", "53.7",
                                                "04-hierarchical: build failed: scan.cu:12: expected ';'"});
    CHECK(moodle[2] == std::vector<std::string>{
                           "poneil", "O\"Neil, Pat", "80.56",
                           "ignored (only each lab's scan.cu and the headers it includes are graded): notes, draft.txt"});
    CHECK(moodle[3] == std::vector<std::string>{"cchen", "Chen, Carol", "0", "no submission"});
    for (const auto& file : {canvas_csv(list, "x"), moodle_csv(list, "x")})
        CHECK(file.find("zed") == std::string::npos);
    // PHP's escape: no backslash right before a quote, where Moodle's reader would not close the field.
    ClassList escaped = list;
    escaped.rows[0].feedback = "ignored: notes, dir\\";
    escaped.rows[1].feedback = "say \\\"hi\\\"";
    const std::string text = moodle_csv(escaped, "x");
    CHECK(text.find("\\\"") == std::string::npos);
    CHECK(rows(text)[1][3] == "ignored: notes, dir\\ ");
    CHECK(rows(text)[2][3] == "say \\ \"hi\\ \"");  // Moodle would stop the whole import at an unknown user

    // Matched in any case of the name, as the batch's names are.
    Report upper = sample("CAROL");
    const ClassList again = class_list(roster, {upper});
    CHECK(again.rows[2].submitted);
    CHECK(again.rows[2].grade == "53.7");
    CHECK(again.not_in_roster.empty());
}

// Canvas's gradebook import as the test reads it: UTF-8, a leading BOM
// dropped (bytes that are not UTF-8 refused); the header's first column
// Student; the row right after it "Points Possible", which gives each
// assignment column that Canvas does not know its points (without it a new
// assignment has none); then a row per student.
struct CanvasImport {
    std::vector<std::string> header;
    std::map<std::string, double> points_possible;  // by assignment column
    std::vector<std::vector<std::string>> students;
};

CanvasImport canvas_import(const std::string& file) {
    const std::string bom = "\xEF\xBB\xBF";
    REQUIRE_MESSAGE(file.rfind(bom, 0) == 0, "no UTF-8 byte-order mark: a spreadsheet reads the file as Latin-1");
    const std::string text = file.substr(bom.size());
    for (std::size_t i = 0; i < text.size();) {  // UTF-8, or the import's names are garbled
        const unsigned char c = text[i];
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        REQUIRE_MESSAGE(n > 0, "not UTF-8 at byte " << i);
        for (std::size_t k = 1; k < n; ++k) REQUIRE(i + k < text.size());
        for (std::size_t k = 1; k < n; ++k) REQUIRE((static_cast<unsigned char>(text[i + k]) >> 6) == 2);
        i += n;
    }
    const auto records = rows(text);
    REQUIRE(records.size() >= 2);
    CanvasImport in;
    in.header = records[0];
    REQUIRE(in.header.size() > 5);
    CHECK(in.header[0] == "Student");
    REQUIRE_MESSAGE(records[1][0] == "Points Possible", "the row after the header is not Points Possible");
    REQUIRE(records[1].size() == in.header.size());
    for (std::size_t k = 5; k < in.header.size(); ++k) in.points_possible[in.header[k]] = std::stod(records[1][k]);
    in.students.assign(records.begin() + 2, records.end());
    return in;
}

TEST_CASE("canvas.csv as Canvas's import reads it: UTF-8 with a BOM, Points Possible for a new assignment") {
    const auto roster = parse_roster("submission,lms_id,name\nmueller,mmueller,\"M\xc3\xbcller, Anna\"\n", "roster.csv");
    const ClassList list = class_list(roster, {sample("mueller")});
    // No --lms-assignment: the default column, an assignment Canvas does not know yet.
    const std::string column = lms_assignment({sample("mueller")});
    const CanvasImport in = canvas_import(canvas_csv(list, column));
    CHECK(in.header.back() == column);
    CHECK(in.points_possible.at(column) == 100);  // the grade is a percent
    REQUIRE(in.students.size() == 1);
    CHECK(in.students[0][0] == "M\xc3\xbcller, Anna");  // Müller, not MÃ¼ller
    CHECK(in.students[0][3] == "mmueller");
    CHECK(in.students[0][5] == "53.7");
    CHECK(std::stod(in.students[0][5]) <= in.points_possible.at(column));
}

TEST_CASE("golden files: canvas.csv and moodle.csv of a class with a missing and an unknown student") {
    const ClassList list = class_list(parse_roster(kRoster, "roster.csv"), class_reports());
    check_golden("canvas.csv", canvas_csv(list, "Lab 2: Brent-Kung (40125)"));
    check_golden("moodle.csv", moodle_csv(list, "Lab 2: Brent-Kung (40125)"));
}

TEST_CASE("run-wide notes: said once where every graded student shares them") {
    Report a = sample("a"), b = sample("b"), refused = sample("r");
    refused.refused = "empty";
    refused.run_notes.clear();  // it ran nothing
    refused.notes = {"not graded: the archive is empty"};
    CHECK(run_wide_notes({a, b, refused}) == std::vector<std::string>{"sandbox: bubblewrap"});
    CHECK(student_notes(refused, {"sandbox: bubblewrap"}) == "not graded: the archive is empty; "
                                                              "04-hierarchical: build failed: scan.cu:12: expected ';'");
    // A Slurm node without the sandbox: neither note is every student's, so each stays on its row.
    b.run_notes = {"no sandbox was used: bwrap: setting up uid map: Permission denied"};
    CHECK(run_wide_notes({a, b}).empty());
    const std::string book = gradebook_csv({a, b});
    CHECK(book.find("\r\na,90,55,0,145,270,53.7,,sandbox: bubblewrap; 04-hierarchical") != std::string::npos);
    CHECK(book.find("\r\nb,90,55,0,145,270,53.7,,no sandbox was used: bwrap") != std::string::npos);
}

TEST_CASE("write_gradebook: the summary says the run once; a roster adds the LMS files and lists the unknown") {
    char tmp[] = "/tmp/test-gradebook-XXXXXX";
    REQUIRE(mkdtemp(tmp) != nullptr);
    const std::string out = tmp;
    const std::vector<Report> reports = class_reports();

    BatchBook book = write_gradebook(reports, out, nullptr, "");
    CHECK(book.summary.rfind("every student: graded with emu on CPU emulator, sandboxed\n"
                             "every student: sandbox: bubblewrap\n",
                             0) == 0);
    CHECK(book.warnings.empty());
    CHECK(book.files == out + "/gradebook.csv");
    CHECK(fs::exists(out + "/gradebook.csv"));
    CHECK(!fs::exists(out + "/canvas.csv"));

    const auto roster = parse_roster(kRoster, "roster.csv");
    book = write_gradebook(reports, out, &roster, "");
    CHECK(read(out + "/gradebook.csv").find("\r\nzed,") != std::string::npos);  // its grades stay here
    const ClassList list = class_list(roster, reports);
    // The default column: the three labs the sample grades, by id.
    const std::string column = "01-kogge-stone + 02-brent-kung + 04-hierarchical";
    CHECK(lms_assignment(reports) == column);
    CHECK(read(out + "/canvas.csv") == canvas_csv(list, column));
    CHECK(read(out + "/moodle.csv") == moodle_csv(list, column));
    CHECK(read(out + "/not-in-roster.txt") == "zed\n");
    REQUIRE(book.warnings.size() == 1);
    CHECK(book.warnings[0] == "1 submission(s) not in the roster, left out of canvas.csv and moodle.csv (their rows "
                              "are in gradebook.csv; listed in " + out + "/not-in-roster.txt): zed");
    CHECK(book.summary.find("canvas.csv, moodle.csv: 3 students of the roster, grade column \"" + column +
                            "\" (percent of the points graded); 1 with no submission, 0: carol\n") != std::string::npos);
    CHECK(book.files == out + "/gradebook.csv, " + out + "/canvas.csv, " + out + "/moodle.csv, " + out +
                            "/not-in-roster.txt");
    fs::remove_all(tmp);
}

TEST_CASE("the LMS column's default names what was graded") {
    Report one = sample();
    one.labs.resize(1);
    CHECK(lms_assignment({one}) == "01-kogge-stone");
    Report all;
    for (const auto& lab : catalog::labs()) all.labs.emplace_back().lab = lab.id;
    CHECK(lms_assignment({all}) == "scan-labs");
    CHECK(lms_assignment({}) == "scan-labs");
}
