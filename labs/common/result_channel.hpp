// The one way a runner's results reach the grader: frames written to a pipe
// the grader made (the runner's --result-fd), read by the grader as they come.
// Nothing a run leaves in a file counts: a file can be rewritten after the
// runner wrote it (a static destructor of the submission, a thread it left
// running), a frame in the pipe cannot be taken back. The runner ends with
// _exit right after its last frame, so no exit handler, destructor or
// leftover thread of the submission runs after it. Code of the submission
// that writes frames of its own during the run makes the stream one the
// grader refuses (frames out of sequence, or more than it asked for).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace harness::channel {

enum class Kind : std::uint8_t {
    observation = 1,  // encode_observation's bytes (observation.hpp)
    timing = 2,       // scan-bench's JSON document of one timed function
    held = 3,         // scan-bench holds the GPU alone: the timings begin
    device_only = 4,  // scan-bench's JSON of one run made and checked on the device alone
};

// Header: 8 bytes of magic, the kind (1 byte), the run's index in the plan
// (8 bytes), the payload's length (8 bytes); then the payload.
constexpr std::size_t kHeader = 8 + 1 + 8 + 8;

// Runner side: the whole frame written to `fd`, or std::runtime_error.
void send(int fd, Kind kind, std::uint64_t index, std::string_view payload);
// The fd from --result-fd's text: a number of an open descriptor above 2, or
// std::runtime_error naming the problem.
int parse_fd(const std::string& text);
// Flushes stdio and ends the process at once (_exit): no atexit handler,
// static destructor or other thread runs after the last frame.
[[noreturn]] void finish(int code);

struct Frame {
    Kind kind;
    std::uint64_t index;
    std::string_view payload;  // into the bytes given to parse
};

// Grader side: the complete frames at the start of `bytes` (a tail still
// being written is left out). `problem` is set, and parsing stops, at bytes
// that are not a frame.
struct Parsed {
    std::vector<Frame> frames;
    std::string problem;
};
Parsed parse(std::string_view bytes);

// "" where every frame of `got` is one the grader asked for (`asked`: each
// frame's kind and index) and none came twice (a process may stop short);
// else why not, for the feedback: code of the submission wrote to the
// channel. A frame it forged before the runner's own is found by the
// runner's coming second.
std::string check_frames(const Parsed& got, const std::vector<std::pair<Kind, std::uint64_t>>& asked);

}  // namespace harness::channel
