// CSV as RFC 4180 writes it, for the gradebooks a batch writes (gradebook.csv,
// canvas.csv, moodle.csv) and the roster it reads: fields separated by
// commas, a field holding a comma, quote or line break quoted with its
// quotes doubled, records ended by CRLF.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace grader {

// One record, its fields quoted where they must be, ended by CRLF.
std::string csv_row(const std::vector<std::string>& fields);

// A record as read: its fields and the line it starts on (1-based; a quoted
// field may hold line breaks, so a record can span lines).
struct CsvRecord {
    std::size_t line = 0;
    std::vector<std::string> fields;
};

struct CsvError : std::runtime_error {
    CsvError(std::size_t line, const std::string& why) : std::runtime_error(why), line(line) {}
    std::size_t line;
};

// Every record of `text`, as spreadsheets write them: a UTF-8 byte-order mark
// at the start is dropped, records end with CRLF or LF, and records whose
// every field is empty (blank lines, a row of empty cells) are left out.
// Throws CsvError naming the line of a quote that is not closed, or of a
// quote inside an unquoted field or after a closing quote.
std::vector<CsvRecord> parse_csv(std::string_view text);

}  // namespace grader
