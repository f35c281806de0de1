#include "grader/grading/dataset_cache.hpp"

namespace grader {

DatasetCache::Data DatasetCache::get(const datasets::Spec& spec) const {
    std::promise<Data> made;
    std::shared_future<Data> ready;
    bool mine = false;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto [it, inserted] = entries_.try_emplace(std::make_tuple(static_cast<int>(spec.dist), spec.n, spec.seed));
        if (inserted) it->second = made.get_future().share();
        mine = inserted;
        ready = it->second;
    }
    if (mine) try {
            made.set_value(std::make_shared<const std::vector<float>>(datasets::generate(spec)));
        } catch (...) {
            made.set_exception(std::current_exception());
        }
    return ready.get();
}

}  // namespace grader
