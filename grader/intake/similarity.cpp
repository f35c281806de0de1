#include "grader/intake/similarity.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "grader/core/files.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

extern char** environ;

namespace grader {

namespace {

constexpr double kTimeoutS = 600;  // a class's comparison takes seconds (bench/results); past this, something is wrong

// Runs argv with this process's environment (the instructor's python3 and
// its packages: nothing of a student's runs here), standard error to
// `log`; its exit status, or -1 where it could not start or ran past kTimeoutS.
int run_tool(const std::vector<std::string>& argv, const std::string& log) {
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&files, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, args[0], &files, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    if (spawned != 0) return -1;
    const auto start = std::chrono::steady_clock::now();
    for (int status = 0;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        if (done < 0) return -1;
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > kTimeoutS) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

json off(const std::string& why) { return {{"status", "off"}, {"why", why}}; }

}  // namespace

void write_graded_code(const Report& report, const std::string& directory) {
    std::error_code error;
    fs::remove_all(fs::path(directory) / "code", error);  // a regrade's labs only
    for (const LabResult& lab : report.labs)
        if (lab.submitted && !lab.source.empty()) {
            fs::create_directories(fs::path(directory) / "code" / lab.lab);
            write_file((fs::path(directory) / "code" / lab.lab / "scan.cu").string(), lab.source);
        }
}

json similarity_check(const std::string& out, const std::string& kit, const SimilaritySettings& settings) {
    if (!settings.on) return off("turned off in the rubric (\"similarity\": {\"check\": \"off\"})");
    // Per lab, each student's graded file.
    std::map<std::string, json> labs;
    std::error_code error;
    for (const auto& student : fs::directory_iterator(out, error))
        for (const auto& lab : fs::directory_iterator(student.path() / "code", error))
            if (fs::is_regular_file(lab.path() / "scan.cu"))
                labs[lab.path().filename().string()][student.path().filename().string()] =
                    fs::absolute(lab.path() / "scan.cu").string();
    if (labs.empty()) return off("no student's code in " + out + " (OUT/<student>/code/: kept by scan-grade --batch since the class report's similarity)");
    json job = {{"threshold", settings.threshold}, {"min_tokens", settings.min_tokens}, {"pairs", settings.pairs}, {"labs", json::array()}};
    for (const auto& [lab, files] : labs)
        job["labs"].push_back({{"lab", lab},
                               {"base", {kit + "/labs/" + lab + "/scan.cu", kit + "/reference/" + lab + "/scan.cu"}},
                               {"files", files}});
    const std::string job_path = out + "/.similarity-job.json", result_path = out + "/similarity.json",
                      log_path = out + "/.similarity-log.txt";
    write_file(job_path, job.dump());
    fs::remove(result_path, error);
    const char* python = std::getenv("SCAN_GRADE_PYTHON");
    const std::string interpreter = python && *python ? python : "python3";
    const int rc = run_tool({interpreter, kit + "/grader/similarity.py", job_path, result_path}, log_path);
    std::string log = read_file(log_path);
    while (!log.empty() && (log.back() == '\n' || log.back() == ' ')) log.pop_back();
    fs::remove(job_path, error);
    fs::remove(log_path, error);
    if (rc == 3)
        return off("copydetect is not installed for " + interpreter +
                   ": python3 -m pip install copydetect (or in a venv, and SCAN_GRADE_PYTHON=venv/bin/python3)");
    if (rc != 0)
        return off(rc < 0 ? interpreter + " could not run grader/similarity.py (or it ran past " +
                                std::to_string(static_cast<int>(kTimeoutS)) + " s)"
                          : "grader/similarity.py exited with " + std::to_string(rc) + (log.empty() ? "" : ": " + log));
    std::ifstream in(result_path);
    json result = json::parse(in, nullptr, false);
    if (!result.is_object() || !result.contains("labs")) return off("grader/similarity.py wrote no result to " + result_path);
    result["status"] = "on";
    return result;
}

}  // namespace grader
