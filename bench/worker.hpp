// scan-bench's lab builds each run in a worker process of their own
// (scan-bench --worker), driven by a coordinator that loads no lab module:
// the student's module never shares a process, a clock or an address space
// with the reference's build, the copy or CUB, which are timed in another
// worker. The coordinator stops the student's worker (SIGSTOP) while the
// other is timed, is the subreaper of every process a worker leaves, and is
// not dumpable, so no worker can read or patch it.
//
// The wire: each message is a 4-byte length and its bytes. A request is a
// line of words (serve.cpp lists them); a reply is a status byte and a body:
// 'o' done, 's' skipped (the size does not fit the device; the body says
// why), 'e' failed (the body says why).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace bench {

bool send_message(int fd, const std::string& bytes);
bool receive_message(int fd, std::string& bytes);  // false at end of file or on a broken message

struct Reply {
    char status = 'e';
    std::string body;
};

class Worker {
public:
    // Starts `program --worker FD args...`; `name` says whose build it runs, for messages.
    Worker(const std::string& program, const std::vector<std::string>& args, std::string name);
    ~Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // The reply to `request`: 'o' or 's'. Throws DeviceError with the body of
    // an 'e', or naming how the worker ended when it is gone.
    Reply ask(const std::string& request);
    void pause() const;   // SIGSTOP: none of its threads runs, none can launch work
    void resume() const;  // SIGCONT
    // Kills the worker (SIGKILL: its CUDA context, and any work it left on
    // the device, go with it) and reaps it.
    void stop();
    pid_t pid() const { return pid_; }
    const std::string& name() const { return name_; }

private:
    std::string name_;
    pid_t pid_ = -1;
    int fd_ = -1;
};

// Makes this process the subreaper of its descendants, not dumpable (no
// ptrace, no /proc/PID/mem from a process of the same user), and its
// inherited descriptors above 2 close-on-exec, so no worker inherits them.
void guard_coordinator();
// Kills and reaps every child of this process but `keep`: what a stopped
// worker left running (orphans come to the subreaper).
void end_strays(pid_t keep);

}  // namespace bench
