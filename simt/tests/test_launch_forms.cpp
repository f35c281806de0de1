// The emulator's own suite, launch forms (launch_forms_kernels.cu): template
// kernels launched with some template arguments written and the rest
// deduced, through a namespace, a using-declaration, a namespace alias and a
// reference, with the spacing and line breaks people write.
#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <string>
#include <vector>

#include "kernels.hpp"
#include "test_helpers.hpp"

namespace {

struct Ran {
    std::vector<float> out;
    std::vector<int> i_out;
    std::vector<std::string> findings;
};

Ran run_form(unsigned which) {
    std::vector<float> in(32);
    for (unsigned i = 0; i < 32; ++i) in[i] = static_cast<float>(i + 1);
    DeviceArray<float> d_in(32), d_out(32);
    DeviceArray<int> d_i(32);
    REQUIRE(cudaMemcpy(d_in.ptr, in.data(), 32 * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemset(d_out.ptr, 0, 32 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(d_i.ptr, 0, 32 * sizeof(int)) == cudaSuccess);
    simt::take_findings();
    launch_forms(d_in.ptr, d_out.ptr, d_i.ptr, which);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    return {download(d_out.ptr, 32), download(d_i.ptr, 32), formatted_findings()};
}

// Form `which` wrote in[i] * scale to out[i] for i below `n`, 0 above.
void check_scaled(unsigned which, float scale, unsigned n = 32) {
    CAPTURE(which);
    const Ran r = run_form(which);
    CHECK(r.findings.empty());
    for (unsigned i = 0; i < 32; ++i) CHECK(r.out[i] == (i < n ? static_cast<float>(i + 1) * scale : 0.0f));
}

}  // namespace

TEST_CASE("launch forms: the first template argument written, the element type deduced") {
    check_scaled(0, 2);  // forms::scaled<2><<<1, 32>>>
    check_scaled(1, 4);  // a using-declaration's name, `<<< 1, 32 >>> (...)`
    check_scaled(2, 5);  // a namespace alias, line breaks in the chevrons and before the arguments
    check_scaled(8, 8);  // every argument written: the kernel's address, as before
    check_scaled(9, 9, 16);  // dim3s, no shared memory, a stream
}

TEST_CASE("launch forms: a reference to one specialisation is launched as the function it names") {
    check_scaled(5, 3);
}

TEST_CASE("launch forms: nested template arguments, `>>` against `<<<`, a pack, an attribute before the name") {
    Ran r = run_form(3);  // forms::nested<forms::Wrap<int, 5>, 2>
    CHECK(r.findings.empty());
    CHECK(r.out == std::vector<float>(32, 10.0f));
    r = run_form(4);  // forms::wrapped<forms::Wrap<float, 6>><<<1, 32>>>
    CHECK(r.findings.empty());
    CHECK(r.out == std::vector<float>(32, 6.0f));
    r = run_form(6);  // forms::packed<int>(i_out, 1, 2.5, 3u): the rest of the pack deduced, double and unsigned
    CHECK(r.findings.empty());
    CHECK(r.i_out == std::vector<int>(32, 6));
    r = run_form(7);  // template <...> __global__ void __launch_bounds__(64) bounded(...)
    CHECK(r.findings.empty());
    CHECK(r.out == std::vector<float>(32, 7.0f));
}
