// The GPU lock between processes (gpu_lock.hpp), held from threads: each
// hold opens its own descriptors, which flock treats as separate holders.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include "doctest/doctest.h"
#include "gpu_lock.hpp"

using gpu_lock::Hold;
using gpu_lock::Mode;
using namespace std::chrono_literals;

namespace {

std::string fresh_prefix(const char* name) {
    const auto dir = std::filesystem::temp_directory_path() / ("gpu-lock-test-" + std::to_string(::getpid()));
    const std::string prefix = (dir / name).string();
    gpu_lock::create(prefix);
    return prefix;
}

// True once `flag` is set, waiting up to ten seconds (a loaded machine).
bool becomes_true(const std::atomic<bool>& flag) {
    for (int i = 0; i < 1000 && !flag; ++i) std::this_thread::sleep_for(10ms);
    return flag;
}

}  // namespace

TEST_CASE("shared holders share; an exclusive one waits for them all") {
    const std::string prefix = fresh_prefix("share");
    auto a = std::make_unique<Hold>(prefix, Mode::shared);
    auto b = std::make_unique<Hold>(prefix, Mode::shared);  // would hang if shared holders excluded each other
    std::atomic<bool> got{false};
    std::thread timing([&] {
        Hold alone(prefix, Mode::exclusive);
        got = true;
    });
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(got);
    a.reset();
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(got);
    b.reset();
    CHECK(becomes_true(got));
    timing.join();
}

TEST_CASE("a waiting exclusive holder goes before shared holders that come after it") {
    const std::string prefix = fresh_prefix("order");
    auto first = std::make_unique<Hold>(prefix, Mode::shared);
    std::atomic<bool> timing_got{false}, timing_done{false}, later_got{false}, later_after_timing{false};
    std::thread timing([&] {
        Hold alone(prefix, Mode::exclusive);
        timing_got = true;
        std::this_thread::sleep_for(100ms);
        timing_done = true;
    });
    std::this_thread::sleep_for(100ms);  // the exclusive holder is waiting now
    std::thread later([&] {
        Hold shared(prefix, Mode::shared);
        later_after_timing = timing_done.load();
        later_got = true;
    });
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(later_got);  // queued behind the exclusive holder, though only shared holders hold the lock
    first.reset();
    CHECK(becomes_true(timing_got));
    CHECK(becomes_true(later_got));
    CHECK(later_after_timing);
    timing.join();
    later.join();
}

TEST_CASE("become: a shared holder turns exclusive once the others let go, and back") {
    const std::string prefix = fresh_prefix("become");
    Hold mine(prefix, Mode::shared);
    auto other = std::make_unique<Hold>(prefix, Mode::shared);
    std::atomic<bool> exclusive{false};
    std::thread upgrade([&] {
        mine.become(Mode::exclusive);
        exclusive = true;
    });
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(exclusive);
    other.reset();
    CHECK(becomes_true(exclusive));
    upgrade.join();
    std::atomic<bool> shared_got{false};
    std::thread reader([&] {
        Hold shared(prefix, Mode::shared);
        shared_got = true;
    });
    std::this_thread::sleep_for(100ms);
    CHECK_FALSE(shared_got);
    mine.become(Mode::shared);
    CHECK(becomes_true(shared_got));
    reader.join();
    CHECK(mine.held());
}

TEST_CASE("a lock that cannot be made or opened is named") {
    CHECK_THROWS_WITH_AS(gpu_lock::create("/proc/no-such-folder/gpu0"), doctest::Contains("/proc/no-such-folder/gpu0.lock"),
                         std::runtime_error);
    const std::string missing = (std::filesystem::temp_directory_path() / "gpu-lock-test-missing" / "gpu0").string();
    CHECK_THROWS_WITH_AS(Hold(missing, Mode::shared), doctest::Contains("gpu-lock-test-missing/gpu0.turn"), std::runtime_error);
}
