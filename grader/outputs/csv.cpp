#include "grader/outputs/csv.hpp"

namespace grader {

namespace {

// RFC 4180, section 2: a field holding a comma, quote or line break is
// quoted, its quotes doubled.
std::string field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? "\"\"" : std::string(1, c);
    return out + "\"";
}

bool all_empty(const std::vector<std::string>& fields) {
    for (const std::string& f : fields)
        if (!f.empty()) return false;
    return true;
}

}  // namespace

std::string csv_row(const std::vector<std::string>& fields) {
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + field(fields[i]);
    return out + "\r\n";
}

std::vector<CsvRecord> parse_csv(std::string_view text) {
    if (text.substr(0, 3) == "\xef\xbb\xbf") text.remove_prefix(3);
    std::vector<CsvRecord> records;
    CsvRecord record{1, {}};
    std::string current;
    std::size_t line = 1;
    bool quoted = false;     // inside a quoted field
    bool was_quoted = false; // the current field was quoted and has closed
    const auto end_field = [&] {
        record.fields.push_back(current);
        current.clear();
        was_quoted = false;
    };
    const auto end_record = [&] {
        end_field();
        if (!all_empty(record.fields)) records.push_back(record);
        record = {line, {}};
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                current += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
                was_quoted = true;
            } else {
                if (c == '\n') ++line;
                current += c;
            }
        } else if (c == ',') {
            end_field();
        } else if (c == '\n' || (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')) {
            if (c == '\r') ++i;
            ++line;
            end_record();
        } else if (c == '"') {
            if (!current.empty() || was_quoted)
                throw CsvError(line, was_quoted ? "a quote right after a quoted field's closing quote (a quote inside "
                                                  "a quoted field is written twice: \"\")"
                                                : "a quote inside an unquoted field (quote the whole field, its "
                                                  "quotes doubled: \"a \"\"b\"\"\")");
            quoted = true;
        } else if (was_quoted) {
            throw CsvError(line, "text after a quoted field's closing quote (a quote inside a quoted field is "
                                 "written twice: \"\")");
        } else {
            current += c;
        }
    }
    if (quoted) throw CsvError(record.line, "a quoted field is not closed");
    if (!current.empty() || was_quoted || !record.fields.empty()) end_record();
    return records;
}

}  // namespace grader
