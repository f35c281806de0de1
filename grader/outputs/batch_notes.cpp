// A batch's notes (batch_notes.hpp).
#include "grader/outputs/batch_notes.hpp"

#include <algorithm>

#include "grader/outputs/outputs.hpp"

namespace grader {

bool graded_here(const Report& r) { return r.refused.empty(); }

std::string joined(const std::vector<std::string>& items, const char* between) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : between) + item;
    return out;
}

std::vector<std::string> run_wide_notes(const std::vector<Report>& reports) {
    std::vector<std::string> shared;
    bool first = true;
    for (const Report& r : reports) {
        if (!graded_here(r)) continue;
        if (first) shared = r.run_notes;
        first = false;
        shared.erase(std::remove_if(shared.begin(), shared.end(),
                                    [&](const std::string& note) {
                                        return std::find(r.run_notes.begin(), r.run_notes.end(), note) == r.run_notes.end();
                                    }),
                     shared.end());
    }
    return shared;
}

std::string student_notes(const Report& r, const std::vector<std::string>& run_wide) {
    std::vector<std::string> notes;
    for (const std::string& note : all_notes(r))
        if (std::find(run_wide.begin(), run_wide.end(), note) == run_wide.end()) notes.push_back(clean_text(note));
    return joined(notes, "; ");
}

}  // namespace grader
