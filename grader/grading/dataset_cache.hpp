// The datasets a run grades on, each generated once and shared read-only by
// every slot and submission: a class's submissions all run the same inputs,
// which took a second of one core per submission to generate again.
#pragma once

#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "generator.hpp"

namespace grader {

class DatasetCache {
public:
    using Data = std::shared_ptr<const std::vector<float>>;
    // The dataset of `spec`; a second caller of the same spec waits for the first's generation.
    Data get(const datasets::Spec& spec) const;

private:
    mutable std::mutex mutex_;
    mutable std::map<std::tuple<int, std::size_t, std::uint64_t>, std::shared_future<Data>> entries_;
};

}  // namespace grader
