// The runners' plan files (labNN-run's and scan-run's --plan): one run per
// line, its fields separated by tabs.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace harness {

// Each non-empty line's fields; throws std::runtime_error naming the file it
// cannot read or the first line without as many fields as `layout` names
// ("FUNCTION<tab>INPUT<tab>OUTPUT").
inline std::vector<std::vector<std::string>> read_plan(const std::string& path, std::size_t fields, const std::string& layout) {
    std::ifstream file(path);
    if (!file) throw std::runtime_error("cannot read the plan " + path);
    std::vector<std::vector<std::string>> runs;
    for (std::string line; std::getline(file, line);) {
        if (line.empty()) continue;
        std::vector<std::string> run;
        for (std::size_t at = 0;;) {
            const std::size_t tab = line.find('\t', at);
            run.push_back(line.substr(at, tab == std::string::npos ? tab : tab - at));
            if (tab == std::string::npos) break;
            at = tab + 1;
        }
        if (run.size() != fields) throw std::runtime_error("a plan line is not " + layout + ": " + line);
        runs.push_back(std::move(run));
    }
    return runs;
}

}  // namespace harness
