// One GPU shared between processes: correctness and compute-sanitizer runs
// hold it shared, timing holds it alone. Two files per GPU, locked with
// flock(2): PREFIX.lock is the lock itself; PREFIX.turn is a turnstile that
// an exclusive holder keeps while it waits, so new shared holders queue
// behind it and timing is never starved. Nobody waits at the turnstile while
// holding the lock, so no two holders can wait for each other. Each hold
// opens its own descriptors: the threads of one process hold the GPU
// independently, and a process that dies lets go with its descriptors.
#pragma once

#include <string>

namespace gpu_lock {

enum class Mode { shared, exclusive };

// Creates PREFIX.lock and PREFIX.turn (and their folder) where missing.
// Throws std::runtime_error naming what it could not create.
void create(const std::string& prefix);

class Hold {
public:
    Hold() = default;  // holds nothing
    // Waits until the GPU is held in `mode`. Throws std::runtime_error
    // naming a file it cannot open or lock.
    Hold(std::string prefix, Mode mode);
    ~Hold();
    Hold(Hold&& other) noexcept;
    Hold& operator=(Hold&& other) noexcept;
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

    // Lets go, then waits to hold the GPU again in `mode` (flock's in-place
    // conversion could leave two converting holders waiting for each other).
    void become(Mode mode);
    bool held() const { return fd_ >= 0; }

private:
    void acquire(Mode mode);
    void release();
    std::string prefix_;
    int fd_ = -1;
};

}  // namespace gpu_lock
