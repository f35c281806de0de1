#include "grader/grading/schedule.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace grader {

void Tokens::acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return free_ > 0; });
    --free_;
}

void Tokens::release() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++free_;
    }
    cv_.notify_one();
}

void run_tasks(std::size_t count, unsigned width, const std::function<void(std::size_t)>& task) {
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const auto worker = [&] {
        for (std::size_t k; (k = next++) < count;) {
            try {
                task(k);
            } catch (...) {
                std::lock_guard<std::mutex> lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < std::min<std::size_t>(width, count); ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
}

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

void PhaseClock::add(const std::string& name, Clock::time_point from, Clock::time_point to) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [it, fresh] = spans_.insert({name, {from, to}});
    if (!fresh) it->second = {std::min(it->second.first, from), std::max(it->second.second, to)};
}

std::vector<Phase> PhaseClock::phases() const {
    static const char* const order[] = {"build emu", "build cuda", "nvcc check", "datasets emu", "datasets gpu",
                                        "sanitizer", "divergence", "divergence gpu", "timing", "timing check"};
    std::vector<Phase> out;
    for (const char* name : order)
        if (const auto it = spans_.find(name); it != spans_.end())
            out.push_back({name, std::chrono::duration<double>(it->second.second - it->second.first).count()});
    return out;
}

std::mutex& mutex_for(const std::string& key) {
    static std::mutex guard;
    static std::map<std::string, std::mutex> mutexes;
    std::lock_guard<std::mutex> lock(guard);
    return mutexes[key];
}

}  // namespace grader
