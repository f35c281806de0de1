#include "grader/grading/sandbox.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "grader/grading/schedule.hpp"  // since()

namespace grader {

std::string find_in_path(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin:/bin";
    for (std::size_t start = 0; start <= dirs.size();) {
        const std::size_t end = dirs.find(':', start) == std::string::npos ? dirs.size() : dirs.find(':', start);
        const std::string candidate = dirs.substr(start, end - start) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
        start = end + 1;
    }
    return "";
}

namespace {


// The system's folders a run's root holds (Limits::only_given): the
// toolchain, the CUDA driver and toolkit (under /usr, or /opt), the loader's
// configuration. Top-level links (/bin -> usr/bin) are made as links.
const char* const kSystem[] = {"/usr", "/etc", "/opt", "/sys", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"};

std::vector<std::string> bwrap_prefix(const Sandbox& sandbox, const std::vector<std::string>& writable,
                                      const std::vector<std::string>& visible, const std::string& cwd, const Limits& limits) {
    namespace fs = std::filesystem;
    const std::string size = std::to_string(Limits::scratch_bytes);
    const auto tmpfs = [&](std::vector<std::string>& args, const std::string& path) {
        if (limits.only_given) args.insert(args.end(), {"--size", size});
        args.insert(args.end(), {"--tmpfs", path});
    };
    std::vector<std::string> args = {find_in_path("bwrap")};
    std::vector<std::string> roots;  // what the root holds: a hidden path elsewhere is not there anyway
    if (limits.only_given) {
        args.insert(args.end(), {"--tmpfs", "/"});
        for (const char* path : kSystem) {
            std::error_code ec;
            if (fs::is_symlink(path, ec)) args.insert(args.end(), {"--symlink", fs::read_symlink(path, ec).string(), path});
            else if (fs::is_directory(path, ec)) {
                args.insert(args.end(), {"--ro-bind", path, path});
                roots.push_back(path);
            }
        }
    } else {
        args.insert(args.end(), {"--ro-bind", "/", "/"});
        roots.push_back("/");
    }
    // /dev is bound whole: the GPU's device files must be there. /dev/shm and
    // /tmp are private: nothing a run leaves there reaches a later run or the host.
    args.insert(args.end(), {"--dev-bind", "/dev", "/dev"});
    tmpfs(args, "/dev/shm");
    args.insert(args.end(), {"--proc", "/proc"});
    tmpfs(args, "/tmp");
    args.insert(args.end(), {"--unshare-net", "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session"});
    const auto under_root = [&](const std::string& path) {
        for (const std::string& root : roots)
            if (root == "/" || path == root || path.rfind(root + "/", 0) == 0) return true;
        return false;
    };
    for (const auto& path : sandbox.hide) {
        std::error_code ec;
        if (!under_root(path)) continue;
        if (fs::is_directory(path, ec)) args.insert(args.end(), {"--tmpfs", path});
        else if (fs::exists(path, ec)) args.insert(args.end(), {"--ro-bind", "/dev/null", path});
    }
    for (const auto& path : visible) args.insert(args.end(), {"--ro-bind", path, path});
    for (const auto& path : writable) {
        if (limits.only_given) tmpfs(args, path);
        else args.insert(args.end(), {"--bind", path, path});
    }
    args.insert(args.end(), {"--chdir", cwd, "--"});
    return args;
}

// The process groups run_contained has running, for stop_children(): a fixed
// table of atomics, since a signal handler reads it.
constexpr int kMaxChildren = 1024;
std::atomic<pid_t> g_children[kMaxChildren];
std::atomic<bool> g_stopping{false};

int register_child(pid_t pid) {
    for (int i = 0; i < kMaxChildren; ++i) {
        pid_t empty = 0;
        if (g_children[i].compare_exchange_strong(empty, pid)) return i;
    }
    return -1;  // the table is full: the child still has its parent-death signal
}

}  // namespace

Sandbox Sandbox::probe(bool wanted) {
    Sandbox s;
    if (!wanted) {
        s.why = "switched off (--no-sandbox)";
        return s;
    }
    if (find_in_path("bwrap").empty()) {
        s.why = "bubblewrap (bwrap) is not installed";
        return s;
    }
    Sandbox trial;
    trial.enabled = true;
    Limits limits{10};
    limits.only_given = true;  // the stricter of the two roots
    const Outcome o = run_contained({"true"}, "/", {}, limits, trial);
    if (!o.ok()) {
        s.why = "bubblewrap cannot create a sandbox here (" + o.describe() + ": " + o.output.substr(0, 200) + ")";
        return s;
    }
    s.enabled = true;
    return s;
}

std::string signal_name(int signal) {
    const char* name = strsignal(signal);
    return name ? name : "signal " + std::to_string(signal);
}

std::string Outcome::describe() const {
    if (!started) return "could not be started: " + output;
    if (results_over_cap) return "sent more to the grader's result channel than any run's results (" +
                                 std::to_string(Limits{}.result_bytes >> 20) + " MiB) and was killed";
    if (timed_out) return "timed out after " + std::to_string(static_cast<int>(seconds + 0.5)) + " s and was killed";
    if (signal) return "was killed by signal " + std::to_string(signal) + " (" + signal_name(signal) + ")";
    return "exited with code " + std::to_string(exit_code);
}

void stop_children() {
    g_stopping = true;
    for (auto& child : g_children)
        if (const pid_t pid = child.load(); pid > 0) kill(-pid, SIGKILL);
}

bool stopping() { return g_stopping; }

namespace {

// SCAN_GRADE_TRACE=FILE: a line per process run (its start and end, seconds
// since the grader started; how it ended; its command), to see where a
// grading's time goes.
const auto g_epoch = std::chrono::steady_clock::now();
void trace(const std::vector<std::string>& argv, std::chrono::steady_clock::time_point start, const Outcome& o) {
    static const char* const path = std::getenv("SCAN_GRADE_TRACE");
    if (!path || !*path) return;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    static FILE* file = std::fopen(path, "a");
    if (!file) return;
    const auto at = [](std::chrono::steady_clock::time_point t) { return std::chrono::duration<double>(t - g_epoch).count(); };
    std::string command;
    for (const std::string& a : argv) command += " " + a;
    std::fprintf(file, "%.3f\t%.3f\t%s\t%s\n", at(start), at(start) + o.seconds,
                 o.timed_out ? "timeout" : o.signal ? ("signal " + std::to_string(o.signal)).c_str() : std::to_string(o.exit_code).c_str(),
                 command.c_str() + 1);
    std::fflush(file);
}

}  // namespace

Outcome run_contained(const std::vector<std::string>& argv, const std::string& cwd,
                      const std::vector<std::string>& writable, const Limits& limits, const Sandbox& sandbox,
                      const std::vector<std::string>& visible, const std::vector<std::string>& extra_env,
                      std::string* results) {
    std::vector<std::string> full = sandbox.enabled ? bwrap_prefix(sandbox, writable, visible, cwd, limits) : std::vector<std::string>{};
    full.insert(full.end(), argv.begin(), argv.end());
    std::vector<char*> cargs;
    for (auto& a : full) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    // A minimal environment: nothing of the grader's (its secret seed above all).
    const char* path = std::getenv("PATH");
    std::string env_path = std::string("PATH=") + (path ? path : "/usr/bin:/bin"), env_home = "HOME=" + cwd;
    std::vector<std::string> env_strings = extra_env;
    std::vector<char*> env = {env_path.data(), env_home.data(), const_cast<char*>("LC_ALL=C")};
    for (auto& e : env_strings) env.push_back(e.data());
    env.push_back(nullptr);

    Outcome out;
    if (g_stopping) {
        out.output = "the grader is stopping";
        return out;
    }
    int pipe_fds[2], result_fds[2] = {-1, -1};
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
        out.output = std::strerror(errno);
        return out;
    }
    if (results && pipe2(result_fds, O_CLOEXEC) != 0) {
        out.output = std::strerror(errno);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        return out;
    }
    // Everything the child needs is prepared above: between vfork and exec it
    // only makes system calls. vfork, not fork: fork copies the page tables of
    // a grader that holds every slot's datasets and write-protects all of its
    // memory, hundreds of times a submission, which made slots wait on each
    // other. Signals stay blocked until the child has reset the grader's
    // handlers, so none of them runs in the child on the parent's memory.
    const std::string cannot_run = std::string("cannot run ") + cargs[0] + ": ";
    const rlimit fsize{limits.file_bytes, limits.file_bytes}, core{0, 0};
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = vfork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, nullptr);
        setpgid(0, 0);  // its own group: a timeout kills everything it started
        prctl(PR_SET_PDEATHSIG, SIGKILL);  // and a grader killed outright takes it along
        dup2(pipe_fds[1], 1);
        dup2(pipe_fds[1], 2);
        if (result_fds[1] >= 0) {  // kept across exec: dup2 onto itself would keep O_CLOEXEC
            if (result_fds[1] == kResultFd) fcntl(kResultFd, F_SETFD, 0);
            else dup2(result_fds[1], kResultFd);
        }
        const int null_fd = open("/dev/null", O_RDONLY);
        dup2(null_fd, 0);
        setrlimit(RLIMIT_FSIZE, &fsize);
        setrlimit(RLIMIT_CORE, &core);
        if (limits.nice && setpriority(PRIO_PROCESS, 0, limits.nice) != 0) _exit(126);
        if (chdir(cwd.c_str()) != 0) _exit(126);
        execvpe(cargs[0], cargs.data(), env.data());
        const char* why = std::strerror(errno);
        if (write(2, cannot_run.data(), cannot_run.size()) > 0 && write(2, why, std::strlen(why)) > 0) (void)!write(2, "\n", 1);
        _exit(127);
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    close(pipe_fds[1]);
    if (result_fds[1] >= 0) close(result_fds[1]);
    if (pid < 0) {
        close(pipe_fds[0]);
        if (result_fds[0] >= 0) close(result_fds[0]);
        out.output = std::strerror(errno);
        return out;
    }
    out.started = true;
    setpgid(pid, pid);
    const int slot = register_child(pid);
    if (g_stopping) kill(-pid, SIGKILL);  // a stop that came between the check above and the table
    // The run's deadline: the whole run's limit, or earlier where a step hangs.
    const auto deadline = [&] {
        return limits.step_deadline ? std::min(limits.timeout_s, limits.step_deadline()) : limits.timeout_s;
    };
    // Both pipes read as they fill, until the program and everything it
    // started closed them: a result channel left unread would block it.
    std::vector<char> buffer(1 << 20);
    pollfd fds[2] = {{pipe_fds[0], POLLIN, 0}, {result_fds[0], POLLIN, 0}};
    while (fds[0].fd >= 0 || fds[1].fd >= 0) {
        const double left = deadline() - since(start);
        if (left <= 0) {
            out.timed_out = true;
            kill(-pid, SIGKILL);
            break;
        }
        const double wait = limits.step_deadline ? std::min(left, 0.2) : left;
        if (poll(fds, 2, static_cast<int>(wait * 1000) + 1) <= 0) continue;
        for (pollfd& p : fds) {
            if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t got = read(p.fd, buffer.data(), buffer.size());
            if (got <= 0) {
                close(p.fd);
                p.fd = -1;
            } else if (&p == &fds[1]) {
                if (results->size() + static_cast<std::size_t>(got) > limits.result_bytes) {
                    out.results_over_cap = true;
                    kill(-pid, SIGKILL);
                    close(p.fd);
                    p.fd = -1;
                } else {
                    results->append(buffer.data(), static_cast<std::size_t>(got));
                }
            } else {
                const std::size_t keep = std::min<std::size_t>(got, limits.output_bytes - std::min(limits.output_bytes, out.output.size()));
                out.output.append(buffer.data(), keep);
                out.dropped += static_cast<std::size_t>(got) - keep;
            }
        }
    }
    for (const pollfd& p : fds)
        if (p.fd >= 0) close(p.fd);
    int status = 0;
    // The pipe closed: wait for the exit, still within the timeout.
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (since(start) > deadline()) {
            out.timed_out = true;
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            break;
        }
        usleep(2000);
    }
    kill(-pid, SIGKILL);  // anything it left running in its group
    if (slot >= 0) g_children[slot] = 0;
    out.seconds = since(start);
    if (!out.timed_out) {
        if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
        else if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
    }
    if (out.dropped) out.output += "\n[... " + std::to_string(out.dropped) + " more bytes of output dropped]\n";
    trace(argv, start, out);
    return out;
}

}  // namespace grader
