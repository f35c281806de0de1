// A stand-in for `scan-bench --worker` in test_worker.cpp: speaks the wire
// (bench/worker.hpp) and does, on request, what a student's worker may.
//   echo TEXT   'o' and the request        error   'e' "failed here"
//   crash       abort()                     fd N    'o' "open" or "closed"
//   spawn       a grandchild that leaves its session and sleeps: 'o' its pid
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "worker.hpp"

int main(int argc, char** argv) {
    if (argc < 3 || std::string(argv[1]) != "--worker") return 2;
    const int fd = std::atoi(argv[2]);
    for (std::string request; bench::receive_message(fd, request);) {
        std::string reply = "o" + request;
        if (request == "error") reply = "efailed here";
        if (request == "crash") std::abort();
        if (request.rfind("fd ", 0) == 0) reply = fcntl(std::atoi(request.c_str() + 3), F_GETFD) >= 0 ? "oopen" : "oclosed";
        if (request == "spawn") {
            int pids[2];
            if (pipe(pids) != 0) return 1;
            if (fork() == 0) {
                if (fork() == 0) {
                    setsid();
                    const pid_t me = getpid();
                    write(pids[1], &me, sizeof me);
                    sleep(60);
                    _exit(0);
                }
                _exit(0);  // the grandchild is an orphan now
            }
            pid_t grandchild = 0;
            read(pids[0], &grandchild, sizeof grandchild);
            reply = "o" + std::to_string(grandchild);
        }
        if (!bench::send_message(fd, reply)) break;
    }
    return 0;
}
