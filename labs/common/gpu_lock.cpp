#include "gpu_lock.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace gpu_lock {

namespace {

int open_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open the GPU lock " + path + ": " + std::strerror(errno));
    return fd;
}

void lock_file(int fd, int operation, const std::string& path) {
    while (::flock(fd, operation) != 0)
        if (errno != EINTR) throw std::runtime_error("cannot lock " + path + ": " + std::strerror(errno));
}

}  // namespace

void create(const std::string& prefix) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(prefix).parent_path(), ec);
    for (const char* ext : {".lock", ".turn"}) {
        const std::string path = prefix + ext;
        const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) throw std::runtime_error("cannot create the GPU lock " + path + ": " + std::strerror(errno));
        ::close(fd);
    }
}

Hold::Hold(std::string prefix, Mode mode) : prefix_(std::move(prefix)) { acquire(mode); }

Hold::~Hold() { release(); }

Hold::Hold(Hold&& other) noexcept : prefix_(std::move(other.prefix_)), fd_(std::exchange(other.fd_, -1)) {}

Hold& Hold::operator=(Hold&& other) noexcept {
    if (this != &other) {
        release();
        prefix_ = std::move(other.prefix_);
        fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
}

void Hold::become(Mode mode) {
    release();
    acquire(mode);
}

void Hold::acquire(Mode mode) {
    const std::string turn_path = prefix_ + ".turn", lock_path = prefix_ + ".lock";
    const int turn = open_file(turn_path);
    try {
        lock_file(turn, LOCK_EX, turn_path);
        fd_ = open_file(lock_path);
        lock_file(fd_, mode == Mode::exclusive ? LOCK_EX : LOCK_SH, lock_path);
    } catch (...) {
        ::close(turn);
        release();
        throw;
    }
    ::close(turn);  // the turnstile passes to the next in line
}

void Hold::release() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

}  // namespace gpu_lock
