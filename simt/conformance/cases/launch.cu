// Launches through the runtime API: cudaLaunchKernel with the kernel's
// arguments read from `args` (its parameters of several types and sizes, a
// struct among them), its launch errors as <<<>>>'s; and
// cudaLaunchCooperativeKernel, up to as many blocks as an H100 holds at once
// and one more.
#include <cooperative_groups.h>

#include <vector>

#include "conformance.hpp"

namespace cg = cooperative_groups;

namespace {

struct Pair {
    int a;
    float b;
};

__global__ void k_params(int* out, int a, float b, Pair p, unsigned long long c, char d, const double* e) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = a + static_cast<int>(b * 4.0f) + 100 * p.a + static_cast<int>(p.b) + static_cast<int>(c >> 40) +
             1000 * d + static_cast<int>(e[t % 4]) + static_cast<int>(t);
}

// Counts the blocks that ran.
__global__ void k_count(unsigned* count) {
    if (threadIdx.x == 0) atomicAdd(count, 1u);
}

// Whether this_grid() is valid: only in a cooperative launch.
__global__ void k_grid_valid(unsigned* out) {
    if (threadIdx.x == 0) out[blockIdx.x] = cg::this_grid().is_valid() ? 1u : 0u;
}

}  // namespace

CONFORMANCE_CASE(runtime_launch, "cudaLaunchKernel") {
    conformance::Buffer<int> out(2 * 64);
    conformance::Buffer<double> doubles(std::vector<double>{1.0, 2.0, 3.0, 4.0});
    int* d_out = out;
    const double* d_doubles = doubles;
    int a = 7;
    float b = 2.5f;
    Pair p{3, 9.0f};
    unsigned long long c = 5ull << 40;
    char d = 2;
    void* args[] = {&d_out, &a, &b, &p, &c, &d, &d_doubles};
    std::vector<int> codes;
    codes.push_back(cudaLaunchKernel((void*)k_params, dim3(2), dim3(64), args, 0, nullptr));
    r.exact("k_params through cudaLaunchKernel((void*)k, ...)", out.get());
    a = 8;  // the arguments are read when the launch is made
    codes.push_back(cudaLaunchKernel(k_params, dim3(2), dim3(64), args));
    r.exact("k_params through cudaLaunchKernel(k, ...)", out.get());
    // Launch errors, each also the last error, as <<<>>>'s.
    codes.push_back(cudaLaunchKernel((void*)k_params, dim3(1), dim3(1025), args, 0, nullptr));
    codes.push_back(cudaGetLastError());
    codes.push_back(cudaLaunchKernel((void*)k_params, dim3(0), dim3(32), args, 0, nullptr));
    codes.push_back(cudaGetLastError());
    codes.push_back(cudaLaunchKernel((void*)k_params, dim3(1), dim3(32), args, 48 * 1024 + 4, nullptr));
    codes.push_back(cudaGetLastError());
    codes.push_back(cudaGetLastError());
    r.exact("return codes: two launches, 1025 threads, its last error, a zero grid, its last error, 48 KiB + 4 of "
            "shared memory, its last error, the last error again",
            codes);
}

CONFORMANCE_CASE(cooperative_launch, "cudaLaunchCooperativeKernel grid_group this_grid") {
    conformance::Buffer<unsigned> count(1), valid(4);
    unsigned* d_count = count;
    void* args[] = {&d_count};
    std::vector<int> codes;
    // 132 SMs x 32 blocks of 32 threads, all resident at once: the most an
    // H100 takes; one more is refused.
    codes.push_back(cudaLaunchCooperativeKernel((void*)k_count, dim3(132 * 32), dim3(32), args, 0, nullptr));
    r.exact("blocks run by a cooperative launch of 4224 blocks of 32 threads", count.get());
    codes.push_back(cudaLaunchCooperativeKernel((void*)k_count, dim3(132 * 32 + 1), dim3(32), args, 0, nullptr));
    codes.push_back(cudaGetLastError());
    codes.push_back(cudaGetLastError());
    r.exact("blocks run after a refused one (4225 blocks)", count.get());
    r.exact("return codes: 4224 blocks, 4225 blocks, the last error, the last error again", codes);
    unsigned* d_valid = valid;
    void* valid_args[] = {&d_valid};
    r.require(cudaLaunchCooperativeKernel((void*)k_grid_valid, dim3(2), dim3(32), valid_args, 0, nullptr),
              "cudaLaunchCooperativeKernel");
    k_grid_valid<<<2, 32>>>(d_valid + 2);
    r.exact("this_grid().is_valid(): cooperative launch, cooperative launch, <<<>>>, <<<>>>", valid.get());
}
