// emu-lab02-speed: times lab 02's brent_kung_scan on 2^20 elements on the
// emulator, with every check on, as the lab suites run it. Prints the median
// of five runs against the kit's target (2 s on a 2-core machine).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <simt/runtime.hpp>

#include "compare.hpp"
#include "generator.hpp"
#include "scan.hpp"

int main() {
    constexpr unsigned n = 1u << 20;
    constexpr double target_s = 2.0;
    const std::vector<float> in = datasets::generate({datasets::Distribution::Walk4, n, 7});
    float *d_in = nullptr, *d_out = nullptr;
    if (cudaMalloc(&d_in, n * sizeof(float)) != cudaSuccess || cudaMalloc(&d_out, n * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice) != cudaSuccess) {
        std::fprintf(stderr, "emu-lab02-speed: device setup failed\n");
        return 1;
    }
    std::vector<double> seconds;
    for (int run = 0; run < 5; ++run) {
        const auto start = std::chrono::steady_clock::now();
        brent_kung_scan(d_in, d_out, n);
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::vector<float> out(n);
    cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    const bool right = compare::compare(in, out, {datasets::ScanKind::Inclusive, BK_SECTION_SIZE, BK_SECTION_SIZE}, true).ok();
    const std::size_t findings = simt::take_findings().size();
    std::sort(seconds.begin(), seconds.end());
    std::printf("brent_kung_scan, %u elements, emulator with all checks: median %.3f s (min %.3f, max %.3f) over 5 runs; "
                "target at most %.1f s: %s; values %s, %zu finding(s)\n",
                n, seconds[2], seconds.front(), seconds.back(), target_s, seconds[2] <= target_s ? "met" : "MISSED",
                right ? "right" : "WRONG", findings);
    cudaFree(d_in);
    cudaFree(d_out);
    return right ? 0 : 1;
}
