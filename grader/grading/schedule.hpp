// How a grading shares the machine: cores counted across every slot of a
// batch, each GPU shared (correctness, compute-sanitizer) or held alone
// (timing, by scan-bench), tasks spread over threads, and each phase's time.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gpu_lock.hpp"
#include "grader/core/report.hpp"

namespace grader {

// Processes that each keep a core busy (emulator runs, compute-sanitizer),
// counted across every slot of a batch so the machine is never oversubscribed.
class Tokens {
public:
    explicit Tokens(unsigned count) : free_(count ? count : 1) {}
    void acquire();
    void release();
    unsigned count() const { return count_; }
    void reset(unsigned count) { free_ = count_ = count ? count : 1; }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    unsigned free_, count_ = free_;
};

// A core for the scope of one process that keeps it busy.
struct Token {
    Tokens& tokens;
    explicit Token(Tokens& t) : tokens(t) { tokens.acquire(); }
    ~Token() { tokens.release(); }
};

// One GPU held shared for a scope (gpu_lock.hpp), by correctness and
// compute-sanitizer runs; nothing where no GPU is graded (an empty prefix).
// Timing holds it alone: scan-bench itself, once its inputs and buffers are
// ready, so its start-up keeps no other slot waiting.
struct SharedGpu {
    gpu_lock::Hold hold;
    explicit SharedGpu(const std::string& prefix) {
        if (!prefix.empty()) hold = gpu_lock::Hold(prefix, gpu_lock::Mode::shared);
    }
};

// Runs task(0) ... task(count - 1) on up to `width` threads; the first
// exception a task throws is rethrown once all have ended.
void run_tasks(std::size_t count, unsigned width, const std::function<void(std::size_t)>& task);

// A mutex of its own for each key, kept for the process's life: callers of
// one key (a build folder, a cache entry) wait for each other, of others not.
std::mutex& mutex_for(const std::string& key);

using Clock = std::chrono::steady_clock;
double since(Clock::time_point start);

// Phase times of one grading: each phase from its first start to its last end.
class PhaseClock {
public:
    void add(const std::string& name, Clock::time_point from, Clock::time_point to);
    std::vector<Phase> phases() const;  // in the pipeline's order

private:
    std::mutex mutex_;
    std::map<std::string, std::pair<Clock::time_point, Clock::time_point>> spans_;
};

// Times its scope as one span of a phase.
struct Span {
    PhaseClock& clock;
    std::string name;
    Clock::time_point from = Clock::now();
    ~Span() { clock.add(name, from, Clock::now()); }
};

}  // namespace grader
