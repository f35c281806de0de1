#include "grader/outputs/roster.hpp"

#include <fstream>
#include <iterator>
#include <map>

#include "grader/core/files.hpp"
#include "grader/outputs/csv.hpp"
#include "grader/outputs/outputs.hpp"

namespace grader {

namespace {

std::string trimmed(const std::string& s) {
    const std::size_t first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::vector<RosterStudent> parse_roster(std::string_view text, const std::string& path) {
    const auto error = [&](std::size_t line, const std::string& why) {
        return RosterError(path + " line " + std::to_string(line) + ": " + why);
    };
    std::vector<CsvRecord> records;
    try {
        records = parse_csv(text);
    } catch (const CsvError& e) {
        throw error(e.line, e.what());
    }
    if (records.empty()) throw RosterError(path + ": empty; its first line is the header submission,lms_id,name");
    const char* const columns[] = {"submission", "lms_id", "name"};
    std::map<std::string, std::size_t> at;  // column -> its index
    const CsvRecord& header = records[0];
    std::string have;
    for (std::size_t i = 0; i < header.fields.size(); ++i) {
        const std::string column = lower_case(trimmed(header.fields[i]));
        have += (have.empty() ? "" : ", ") + column;
        if (!at.emplace(column, i).second && !column.empty())
            throw error(header.line, "the header names " + column + " twice");
    }
    for (const char* column : columns)
        if (!at.count(column))
            throw error(header.line, std::string("the header has no column ") + column +
                                         " (it needs submission, lms_id and name; it has: " + have + ")");
    std::vector<RosterStudent> students;
    std::map<std::string, std::size_t> submissions, ids;  // in lower case -> the line
    for (std::size_t r = 1; r < records.size(); ++r) {
        const CsvRecord& record = records[r];
        if (record.fields.size() != header.fields.size())
            throw error(record.line, std::to_string(record.fields.size()) + " fields where the header has " +
                                         std::to_string(header.fields.size()));
        RosterStudent s;
        s.line = record.line;
        std::string* into[] = {&s.submission, &s.lms_id, &s.name};
        for (std::size_t c = 0; c < 3; ++c) {
            *into[c] = trimmed(record.fields[at[columns[c]]]);
            if (into[c]->empty()) throw error(record.line, std::string("no ") + columns[c]);
            // Spreadsheets save in the system's code page unless told otherwise;
            // the LMS files are UTF-8 and would carry the bytes through garbled.
            if (clean_text(*into[c]) != *into[c] || into[c]->find_first_of("\r\n") != std::string::npos)
                throw error(record.line, std::string(columns[c]) + " is not one line of UTF-8 text (save the roster as "
                                                                   "CSV UTF-8)");
        }
        if (const auto [it, added] = submissions.emplace(lower_case(s.submission), s.line); !added)
            throw error(s.line, "submission " + s.submission + " is also on line " + std::to_string(it->second));
        if (const auto [it, added] = ids.emplace(lower_case(s.lms_id), s.line); !added)
            throw error(s.line, "lms_id " + s.lms_id + " is also on line " + std::to_string(it->second));
        students.push_back(s);
    }
    return students;
}

std::vector<RosterStudent> read_roster(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw RosterError("cannot read the roster " + path);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    return parse_roster(text, path);
}

}  // namespace grader
