#include "result_channel.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <stdexcept>

namespace harness::channel {
namespace {

constexpr char kMagic[8] = {'S', 'C', 'A', 'N', 'F', 'R', 'M', '1'};

void put_u64(char* at, std::uint64_t v) { std::memcpy(at, &v, sizeof v); }
std::uint64_t get_u64(const char* at) {
    std::uint64_t v;
    std::memcpy(&v, at, sizeof v);
    return v;
}

void write_all(int fd, const char* p, std::size_t size) {
    while (size > 0) {
        const ssize_t put = ::write(fd, p, size);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) throw std::runtime_error(std::string("cannot write to the grader's result channel: ") + std::strerror(errno));
        p += put;
        size -= static_cast<std::size_t>(put);
    }
}

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::observation: return "observation";
        case Kind::timing: return "timing";
        case Kind::held: return "held";
    }
    return "unknown";
}

}  // namespace

void send(int fd, Kind kind, std::uint64_t index, std::string_view payload) {
    char header[kHeader];
    std::memcpy(header, kMagic, sizeof kMagic);
    header[8] = static_cast<char>(kind);
    put_u64(header + 9, index);
    put_u64(header + 17, payload.size());
    write_all(fd, header, sizeof header);
    write_all(fd, payload.data(), payload.size());
}

int parse_fd(const std::string& text) {
    char* end = nullptr;
    const long fd = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || fd < 3 || fd > 1 << 20) throw std::runtime_error("--result-fd needs a descriptor number above 2, not " + text);
    if (fcntl(static_cast<int>(fd), F_GETFD) < 0) throw std::runtime_error("--result-fd " + text + " is not an open descriptor");
    return static_cast<int>(fd);
}

void finish(int code) {
    std::fflush(nullptr);
    ::_exit(code);
}

Parsed parse(std::string_view bytes) {
    Parsed out;
    std::size_t at = 0;
    while (bytes.size() - at >= kHeader) {
        const char* h = bytes.data() + at;
        const auto kind = static_cast<Kind>(static_cast<unsigned char>(h[8]));
        if (std::memcmp(h, kMagic, sizeof kMagic) != 0 || (kind != Kind::observation && kind != Kind::timing && kind != Kind::held)) {
            out.problem = "bytes that are not a frame at offset " + std::to_string(at);
            return out;
        }
        const std::uint64_t length = get_u64(h + 17);
        if (length > bytes.size() - at - kHeader) break;  // still being written
        out.frames.push_back({kind, get_u64(h + 9), bytes.substr(at + kHeader, length)});
        at += kHeader + length;
    }
    return out;
}

std::string check_frames(const Parsed& got, const std::vector<std::pair<Kind, std::uint64_t>>& asked) {
    const std::string forged = "the result channel holds what the runner did not send (code of the submission wrote to it): ";
    if (!got.problem.empty()) return forged + got.problem;
    std::set<std::pair<Kind, std::uint64_t>> open(asked.begin(), asked.end());
    for (const Frame& f : got.frames)
        if (open.erase({f.kind, f.index}) == 0)
            return forged + kind_name(f.kind) + " frame " + std::to_string(f.index) +
                   (std::count(asked.begin(), asked.end(), std::make_pair(f.kind, f.index)) ? " came twice" : " was not asked for");
    return "";
}

}  // namespace harness::channel
