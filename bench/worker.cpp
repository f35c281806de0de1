#include "worker.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <utility>

#include "device.hpp"

namespace bench {
namespace {

// send's MSG_NOSIGNAL: a worker gone is an error to report, not a SIGPIPE
// that ends the coordinator.
bool write_all(int fd, const char* p, std::size_t n) {
    while (n > 0) {
        const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= static_cast<std::size_t>(k);
    }
    return true;
}

bool read_all(int fd, char* p, std::size_t n) {
    while (n > 0) {
        const ssize_t k = ::read(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= static_cast<std::size_t>(k);
    }
    return true;
}

constexpr std::uint32_t kMaxMessage = 1u << 31;  // an observation of 2^28 floats and its input fit

std::string ended(pid_t pid) {
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return "ended";
    if (WIFSIGNALED(status)) return std::string("was killed by signal ") + std::to_string(WTERMSIG(status));
    return "exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

bool send_message(int fd, const std::string& bytes) {
    if (bytes.size() >= kMaxMessage) return false;
    const auto n = static_cast<std::uint32_t>(bytes.size());
    return write_all(fd, reinterpret_cast<const char*>(&n), sizeof n) && write_all(fd, bytes.data(), bytes.size());
}

bool receive_message(int fd, std::string& bytes) {
    std::uint32_t n = 0;
    if (!read_all(fd, reinterpret_cast<char*>(&n), sizeof n) || n >= kMaxMessage) return false;
    bytes.assign(n, '\0');
    return read_all(fd, bytes.data(), n);
}

Worker::Worker(const std::string& program, const std::vector<std::string>& args, std::string name) : name_(std::move(name)) {
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) throw DeviceError("cannot make a socket for " + name_);
    std::vector<std::string> argv = {program, "--worker", "3"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ < 0) throw DeviceError("cannot start the worker for " + name_);
    if (pid_ == 0) {
        // Gone with the coordinator, whatever ends it.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        // Its end as descriptor 3, the one descriptor it keeps past exec.
        if (ends[1] == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(ends[1], 3) < 0) _exit(127);
        execv(program.c_str(), cargv.data());
        _exit(127);
    }
    ::close(ends[1]);
    fd_ = ends[0];
}

Worker::~Worker() { stop(); }

Reply Worker::ask(const std::string& request) {
    std::string bytes;
    if (fd_ < 0 || !send_message(fd_, request) || !receive_message(fd_, bytes) || bytes.empty()) {
        const std::string how = pid_ > 0 ? ended(pid_) : "ended";
        pid_ = -1;
        throw DeviceError("the process timing " + name_ + " " + how + " during \"" + request + "\"");
    }
    Reply r{bytes[0], bytes.substr(1)};
    if (r.status == 'e') throw DeviceError(r.body);
    if (r.status != 'o' && r.status != 's') throw DeviceError("the process timing " + name_ + " sent a reply out of protocol");
    return r;
}

void Worker::pause() const {
    if (pid_ > 0) kill(pid_, SIGSTOP);
}

void Worker::resume() const {
    if (pid_ > 0) kill(pid_, SIGCONT);
}

void Worker::stop() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (pid_ > 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    pid_ = -1;
}

void guard_coordinator() {
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    prctl(PR_SET_DUMPABLE, 0);
    if (DIR* d = opendir("/proc/self/fd")) {
        const int own = dirfd(d);
        while (const dirent* e = readdir(d)) {
            const int fd = std::atoi(e->d_name);
            if (fd > 2 && fd != own) fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
        }
        closedir(d);
    }
}

void end_strays(pid_t keep) {
    // An orphan reaches this subreaper only once its parent is gone: look
    // again until a pass finds no child but `keep`.
    for (int pass = 0; pass < 1000; ++pass) {
        std::vector<pid_t> found;
        if (DIR* d = opendir("/proc/self/task")) {
            while (const dirent* e = readdir(d)) {
                if (e->d_name[0] == '.') continue;
                std::ifstream in(std::string("/proc/self/task/") + e->d_name + "/children");
                for (pid_t p; in >> p;)
                    if (p != keep) found.push_back(p);
            }
            closedir(d);
        }
        if (found.empty()) return;
        for (pid_t p : found) kill(p, SIGKILL);
        for (pid_t p : found) waitpid(p, nullptr, 0);
    }
}

}  // namespace bench
