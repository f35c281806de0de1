// The result channel (result_channel.hpp): frames sent through a real pipe
// come back whole and in order; a frame code of the submission added (twice,
// unasked, torn) is named; finish() ends the process before any exit handler.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "observation.hpp"
#include "result_channel.hpp"

using namespace harness::channel;

namespace {

// Everything a child process wrote to a pipe until it ended.
std::string from_child(void (*child)(int fd)) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        child(fds[1]);
        _exit(0);
    }
    close(fds[1]);
    std::string bytes;
    char buffer[4096];
    for (ssize_t got; (got = read(fds[0], buffer, sizeof buffer)) > 0;) bytes.append(buffer, static_cast<std::size_t>(got));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return bytes;
}

harness::Observation sample() {
    harness::Observation seen;
    seen.n = 3;
    seen.in_after.assign(3 + harness::kGuard, 1.0f);
    seen.out = {1, 2, 3};
    seen.out.resize(3 + harness::kGuard, harness::kInputGuard);
    seen.launches = 1;
    seen.blocks = 1;
    seen.output_from_kernel = 1;
    return seen;
}

}  // namespace

TEST_CASE("frames sent through a pipe come back whole, in order, an observation among them") {
    const std::string bytes = from_child([](int fd) {
        send(fd, Kind::observation, 0, harness::encode_observation(sample()));
        send(fd, Kind::held, 0, "");
        send(fd, Kind::timing, 0, "{\"results\": []}");
    });
    const Parsed got = parse(bytes);
    CHECK(got.problem.empty());
    REQUIRE(got.frames.size() == 3);
    CHECK(got.frames[0].kind == Kind::observation);
    CHECK(harness::decode_observation(got.frames[0].payload).out[2] == 3.0f);
    CHECK(got.frames[1].kind == Kind::held);
    CHECK(got.frames[1].payload.empty());
    CHECK(got.frames[2].payload == "{\"results\": []}");
    CHECK(check_frames(got, {{Kind::observation, 0}, {Kind::held, 0}, {Kind::timing, 0}}).empty());
    // A frame still being written is not one yet.
    CHECK(parse(std::string_view(bytes).substr(0, bytes.size() - 1)).frames.size() == 2);
    CHECK(parse(std::string_view(bytes).substr(0, kHeader - 1)).frames.empty());
}

TEST_CASE("a frame the runner did not send is named, and no frame counts") {
    const std::vector<std::pair<Kind, std::uint64_t>> asked = {{Kind::observation, 0}, {Kind::observation, 1}};
    // The submission's forged observation 0, then the runner's own.
    const std::string twice = from_child([](int fd) {
        send(fd, Kind::observation, 0, "forged");
        send(fd, Kind::observation, 0, "real");
    });
    CHECK(check_frames(parse(twice), asked) ==
          "the result channel holds what the runner did not send (code of the submission wrote to it): observation frame 0 came twice");
    const std::string unasked = from_child([](int fd) { send(fd, Kind::timing, 0, "{}"); });
    CHECK(check_frames(parse(unasked), asked).find("timing frame 0 was not asked for") != std::string::npos);
    const std::string torn = from_child([](int fd) {
        send(fd, Kind::observation, 0, "x");
        (void)!write(fd, "garbage that is no frame header.", 32);
    });
    CHECK(check_frames(parse(torn), asked).find("bytes that are not a frame at offset 26") != std::string::npos);
    // A process that stopped short sent a prefix: nothing forged.
    CHECK(check_frames(parse(from_child([](int fd) { send(fd, Kind::observation, 0, "x"); })), asked).empty());
}

TEST_CASE("finish ends the process before any exit handler or destructor runs") {
    const std::string bytes = from_child([](int fd) {
        static int channel = fd;
        std::atexit([] { send(channel, Kind::observation, 1, "written at exit"); });
        send(fd, Kind::observation, 0, "the run's");
        finish(0);
    });
    const Parsed got = parse(bytes);
    REQUIRE(got.frames.size() == 1);
    CHECK(got.frames[0].payload == "the run's");
}

TEST_CASE("--result-fd takes an open descriptor above 2") {
    CHECK_THROWS_WITH(parse_fd("1"), "--result-fd needs a descriptor number above 2, not 1");
    CHECK_THROWS_WITH(parse_fd("3x"), "--result-fd needs a descriptor number above 2, not 3x");
    CHECK_THROWS_WITH(parse_fd(""), "--result-fd needs a descriptor number above 2, not ");
    const int fd = open("/dev/null", O_WRONLY);
    REQUIRE(fd > 2);
    CHECK(parse_fd(std::to_string(fd)) == fd);
    close(fd);
    CHECK_THROWS_WITH(parse_fd(std::to_string(fd)), ("--result-fd " + std::to_string(fd) + " is not an open descriptor").c_str());
}
