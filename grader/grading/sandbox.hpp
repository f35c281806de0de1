// Running a program that contains student code: its own process group, a
// wall-clock timeout, a cap on what it may print and write, a minimal
// environment, and, where bubblewrap works, a sandbox: no network, a private
// /tmp and /dev/shm, the hidden paths (the reference, the rubric, the
// grader's work) replaced by empty ones, and only the scratch folder
// writable. A build sees the whole file system read-only; a run of student
// code (Limits::only_given) sees the system's folders and what it is given
// alone, and keeps nothing: its scratch is a size-limited tmpfs.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace grader {

struct Sandbox {
    bool enabled = false;            // bubblewrap found and working
    std::string why;                 // why not, when disabled
    std::vector<std::string> hide;   // folders and files the program must not see
    static Sandbox probe(bool wanted);
};

struct Limits {
    double timeout_s = 60;  // the whole run's
    // Where a run does several steps (a runner's --plan): polled a few times a
    // second, returns the seconds since the start after which the run counts
    // as hung (the time its last step ended plus the next step's allowance).
    std::function<double()> step_deadline = nullptr;
    std::size_t output_bytes = 64 * 1024;      // kept of stdout+stderr; the rest counted, dropped
    std::size_t file_bytes = 1ull << 30;       // RLIMIT_FSIZE: the largest file it may write
    std::size_t result_bytes = 3ull << 30;     // what the result channel may carry: 128 MiB an observation at 2^24
    int nice = 0;  // CPU-only work yields to the processes that keep a GPU busy
    // In the sandbox: a root of the system's folders (/usr, /etc, /opt, /sys,
    // /dev, /proc and the links to them) with the `visible` and `writable`
    // folders alone, not the kit, the batch, the results or other slots; each
    // `writable` folder, /tmp and /dev/shm a new tmpfs of scratch_bytes,
    // gone with the run (a write past it fails with "No space left").
    bool only_given = false;
    static constexpr std::size_t scratch_bytes = 256ull << 20;
};

struct Outcome {
    int exit_code = -1;  // when it exited
    int signal = 0;      // when a signal ended it
    bool timed_out = false;
    bool started = false;
    bool results_over_cap = false;  // the result channel carried more than Limits::result_bytes: killed
    std::string output;  // stdout and stderr, interleaved, truncated to the limit
    std::size_t dropped = 0;
    double seconds = 0;
    bool ok() const { return started && !timed_out && !results_over_cap && signal == 0 && exit_code == 0; }
    std::string describe() const;  // "exited with code 3", "killed by SIGSEGV", "timed out after 10 s"
};

// "Segmentation fault": strsignal's name for it, "signal N" where it has none
// (strsignal may return null, and a std::string cannot be made from that).
std::string signal_name(int signal);

// The path of an executable `name` on PATH (/usr/bin:/bin where PATH is
// unset), or "" where none is.
std::string find_in_path(const std::string& name);

// The descriptor a runner's result channel has in it (--result-fd).
constexpr int kResultFd = 3;

// Runs argv in `cwd`. Inside the sandbox `writable` folders stay writable and
// `visible` ones readable, even under a hidden folder. `env` adds NAME=VALUE
// entries to the minimal environment (CUDA_VISIBLE_DEVICES). With `results`,
// the program gets the write end of a pipe as descriptor kResultFd and
// everything it writes there is appended to *results as it comes (a
// Limits::step_deadline may read it), never to a file
// (labs/common/result_channel.hpp).
Outcome run_contained(const std::vector<std::string>& argv, const std::string& cwd,
                      const std::vector<std::string>& writable, const Limits& limits, const Sandbox& sandbox,
                      const std::vector<std::string>& visible = {}, const std::vector<std::string>& env = {},
                      std::string* results = nullptr);

// Stopping cleanly (SIGINT, SIGTERM): stop_children() kills the process group
// of every program run_contained has running, GPU work included, and makes
// every later run_contained return at once, not started. Async-signal-safe:
// a signal handler calls it.
void stop_children();
bool stopping();

}  // namespace grader
