// Adversarial lab 01: the kernel writes zeros; a static object's destructor,
// run when the test program exits, finds the result files the runner named
// on its command line (--output FILE, or every OUTPUT of a --plan FILE) and
// overwrites the outputs recorded there with the inclusive scan of the input
// (read from the runner's --input files), computed on the host.
#include "scan.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

__global__ void zeros_kernel(float* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 0.0f;
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    (void)d_in;
    if (n == 0) return;
    zeros_kernel<<<(n + 255) / 256, 256>>>(d_out, n);
}

namespace {

std::vector<float> read_floats(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<float> v(bytes.size() / sizeof(float));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
    return v;
}

// Result file: 8 bytes of magic, n, then in_after and out, each a count and floats.
void forge(const std::string& input, const std::string& output) {
    const std::vector<float> in = read_floats(input);
    for (const std::string path : {output, output + ".reversed"}) {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        if (!f) continue;
        std::uint64_t n = 0, count = 0;
        f.seekg(8);
        f.read(reinterpret_cast<char*>(&n), 8);
        f.read(reinterpret_cast<char*>(&count), 8);
        const std::streamoff out_at = 8 + 8 + 8 + static_cast<std::streamoff>(count * sizeof(float)) + 8;
        std::vector<float> answer(n);
        float sum = 0;
        for (std::uint64_t i = 0; i < n && i < in.size(); ++i) {
            if (i % KS_SECTION_SIZE == 0) sum = 0;
            answer[i] = sum += in[i];
        }
        f.seekp(out_at);
        f.write(reinterpret_cast<const char*>(answer.data()), static_cast<std::streamsize>(n * sizeof(float)));
    }
}

struct AtExit {
    ~AtExit() {
        std::ifstream cmd("/proc/self/cmdline", std::ios::binary);
        std::vector<std::string> args;
        for (std::string a; std::getline(cmd, a, '\0');) args.push_back(a);
        std::string input, output, plan;
        for (std::size_t i = 0; i + 1 < args.size(); ++i) {
            if (args[i] == "--input") input = args[i + 1];
            if (args[i] == "--output") output = args[i + 1];
            if (args[i] == "--plan") plan = args[i + 1];
        }
        if (!input.empty() && !output.empty()) forge(input, output);
        std::ifstream lines(plan);
        for (std::string line; std::getline(lines, line);) {
            std::vector<std::string> fields;
            std::istringstream split(line);
            for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
            if (fields.size() >= 3) forge(fields[fields.size() - 2], fields.back());
        }
    }
} at_exit;

}  // namespace
