#include "grader/grading/context.hpp"

#include <algorithm>

namespace grader {

int backend_index(const Context& ctx, const std::string& backend) {
    const auto it = std::find(ctx.backends.begin(), ctx.backends.end(), backend);
    return it == ctx.backends.end() ? -1 : static_cast<int>(it - ctx.backends.begin());
}

double run_timeout(const Context& ctx, const std::string& backend, std::size_t n) {
    const double per_million = backend == "cuda" ? ctx.rubric.gpu_per_million_s : ctx.rubric.run_per_million_s;
    return ctx.rubric.run_base_s + per_million * static_cast<double>(n) / 1e6;
}

}  // namespace grader
