// Host tests of scan-bench's worker processes (bench/worker.hpp), with a
// stub worker (worker_stub.cpp; its path in WORKER_STUB_PATH, set by the build): requests and
// replies, a worker's failure named, a stopped worker, strays reaped, and
// the coordinator guarded.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>

#include "device.hpp"
#include "worker.hpp"

using namespace bench;

namespace {

std::string stub() {
    const char* path = std::getenv("WORKER_STUB_PATH");
    REQUIRE_MESSAGE(path != nullptr, "WORKER_STUB_PATH is not set (meson test sets it)");
    return path;
}

char state_of(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const std::size_t paren = text.rfind(')');
    return paren == std::string::npos || paren + 2 >= text.size() ? '?' : text[paren + 2];
}

}  // namespace

TEST_CASE("the coordinator: not dumpable, a subreaper, and its inherited descriptors closed on exec") {
    int inherited[2];
    REQUIRE(pipe(inherited) == 0);  // as the grader's result channel reaches scan-bench: no close-on-exec
    guard_coordinator();
    CHECK(prctl(PR_GET_DUMPABLE) == 0);
    int subreaper = 0;
    CHECK(prctl(PR_GET_CHILD_SUBREAPER, &subreaper) == 0);
    CHECK(subreaper == 1);
    CHECK((fcntl(inherited[1], F_GETFD) & FD_CLOEXEC) != 0);
    Worker w(stub(), {}, "the stub");
    CHECK(w.ask("fd " + std::to_string(inherited[1])).body == "closed");
    CHECK(w.ask("fd 3").body == "open");  // its own end of the socket
    close(inherited[0]);
    close(inherited[1]);
}

TEST_CASE("a worker answers each request in turn, and its failures are named") {
    Worker w(stub(), {}, "the stub");
    const Reply r = w.ask("echo hello");
    CHECK(r.status == 'o');
    CHECK(r.body == "echo hello");
    CHECK_THROWS_WITH_AS(w.ask("error"), "failed here", DeviceError);
    CHECK(w.ask("echo again").body == "echo again");  // an error reply ends nothing
    CHECK_THROWS_WITH_AS(w.ask("crash"), doctest::Contains("the process timing the stub was killed by signal 6"), DeviceError);
    CHECK_THROWS_AS(w.ask("echo gone"), DeviceError);
}

TEST_CASE("a paused worker runs no thread until resumed") {
    Worker w(stub(), {}, "the stub");
    REQUIRE(w.ask("echo up").status == 'o');
    w.pause();
    char state = '?';
    for (int tries = 0; tries < 1000 && (state = state_of(w.pid())) != 'T'; ++tries) usleep(1000);
    CHECK(state == 'T');
    w.resume();
    CHECK(w.ask("echo on").body == "echo on");
}

TEST_CASE("a stopped worker leaves no process behind, not even one that left its session") {
    guard_coordinator();  // orphans come to this process
    Worker keep(stub(), {}, "the kept stub");
    Worker w(stub(), {}, "the stub");
    const pid_t grandchild = std::stoi(w.ask("spawn").body);
    REQUIRE(grandchild > 0);
    REQUIRE(kill(grandchild, 0) == 0);
    w.stop();
    end_strays(keep.pid());
    CHECK(kill(grandchild, 0) == -1);
    CHECK(errno == ESRCH);
    CHECK(keep.ask("echo still").body == "echo still");  // the one kept runs on
}
