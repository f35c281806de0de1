// Adversarial lab 04: the three-kernel hierarchy, run three times over on
// inputs of the timing's size and above (each pass is right, so the output
// is too), and, when timed, a shortcut: it looks through the process for
// another lab 04 module (the reference's, loaded beside it by the timing
// program) and calls that module's hierarchical_scan instead of its own.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <link.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "scan.hpp"

__global__ void sections_kernel(const float* in, float* out, std::size_t n, float* sums) {
    __shared__ float s[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE) s[k] = k < n - start ? in[start + k] : 0.0f;
    for (unsigned stride = 1; stride < SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned i = (t + 1) * 2 * stride - 1;
        if (i < SECTION_SIZE) s[i] += s[i - stride];
    }
    for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned i = (t + 1) * 2 * stride - 1;
        if (i + stride < SECTION_SIZE) s[i + stride] += s[i];
    }
    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = s[k];
    if (sums != nullptr && t == BLOCK_SIZE - 1) sums[blockIdx.x] = s[SECTION_SIZE - 1];
}

__global__ void add_kernel(float* out, std::size_t n, const float* sums) {
    const std::size_t start = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;
    const float carry = sums[blockIdx.x];
    for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] += carry;
}

static void honest_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);
    if (sections == 1) {
        sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }
    float* d_sums = nullptr;
    if (cudaMalloc(&d_sums, sections * sizeof(float)) != cudaSuccess) return;
    sections_kernel<<<static_cast<unsigned>(sections), BLOCK_SIZE>>>(d_in, d_out, n, d_sums);
    honest_scan(d_sums, d_sums, sections);
    add_kernel<<<static_cast<unsigned>(sections - 1), BLOCK_SIZE>>>(d_out, n, d_sums);
    cudaFree(d_sums);
}

// The kit's module layout (labs/common/lab.hpp), spelled out here.
struct OtherBinding {
    std::string name;
    std::function<void(const float*, float*, std::size_t)> run;
};
struct OtherLab {
    const char* id;
    const char* manifest;
    std::vector<OtherBinding> functions;
};

struct Search {
    const char* mine;
    std::function<void(const float*, float*, std::size_t)> found;
};

static int look(dl_phdr_info* info, std::size_t, void* data) {
    auto* s = static_cast<Search*>(data);
    const char* name = info->dlpi_name;
    if (!name || !std::strstr(name, "lab04-scan.so") || std::strcmp(name, s->mine) == 0) return 0;
    void* handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
    if (!handle) return 0;
    using Entry = const OtherLab* (*)();
    if (auto entry = reinterpret_cast<Entry>(dlsym(handle, "scan_labs_binding")))
        for (const auto& f : entry()->functions)
            if (f.name == "hierarchical_scan") s->found = f.run;
    return s->found ? 1 : 0;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    static Search search = [] {
        Dl_info self{};
        dladdr(reinterpret_cast<void*>(&honest_scan), &self);
        Search s{self.dli_fname ? self.dli_fname : "", {}};
        dl_iterate_phdr(look, &s);
        return s;
    }();
    if (search.found) {
        search.found(d_in, d_out, n);
        return;
    }
    const int passes = n >= (std::size_t{1} << 24) ? 3 : 1;
    for (int p = 0; p < passes; ++p) honest_scan(d_in, d_out, n);
}
