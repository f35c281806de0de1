// The emulator's own suite, the rewriter on forms people write: template
// kernels launched with some template arguments written and the rest
// deduced, in the spellings and spacing seen in the wild. Each stays on its
// lines.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "rewrite.hpp"

namespace {

std::size_t count_lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("rewriter: a template kernel launched with some template arguments is called, the rest deduced") {
    const std::string src =
        "namespace ns {\n"                                                                       // 1
        "template <int B, typename T>\n__global__ void prescan(T* out, const T* in, int n) {}\n"  // 2-3
        "template <typename W, int K, typename T> __global__ void nested(T* out) {}\n"           // 4
        "template <typename... Ts> __global__ void packed(int* out, Ts... xs) {}\n"              // 5
        "template <int B, typename T>\n__global__ void __launch_bounds__(256, 2) bounded(T* p) {}\n"  // 6-7
        "template <> __global__ void prescan<0, int>(int* out, const int* in, int n) {}\n"       // 8
        "}\n"                                                                                    // 9
        "using ns::prescan;\n"                                                                   // 10
        "void f(float* o, const float* i, int n) {\n"                                            // 11
        "  prescan<1><<<g, b, bytes>>>(o, i, n);\n"                                              // 12
        "  ns::prescan<1>  <<< g, b >>>  (o, i, n);\n"                                           // 13
        "  ns::prescan<1>\n      <<<g,\n         b>>>\n      (o, i, n);\n"                       // 14-17
        "  ns::nested<ns::Wrap<int, 2>, 3><<<1, 1>>>(o);\n"                                      // 18
        "  ns::nested<Wrap<int>><<<1, 1>>>(o);\n"                                                // 19
        "  ns::packed<int><<<1, 1>>>(p, 1, 2.0);\n"                                              // 20
        "  ns::bounded<3><<<1, 1>>>(o);\n"                                                       // 21
        "  ns::prescan<1, float><<<1, 1>>>(o, i, n);\n"                                          // 22
        "  ns::prescan<><<<1, 1>>>(o, i, n);\n"                                                  // 23
        "  ns::prescan<\n      2>\n      <<<1, 1>>>(o, i, n);\n"                                   // 24-26
        "}\n";
    const std::string out = simt::rewrite(src, "p.cu");
    CHECK(count_lines(out) == count_lines(src) + 3);
    const auto call = [](const std::string& callee) {
        return "::simt::launch_call([&](auto&&... a) { " + callee + "(a...); }, {\"";
    };
    CHECK(has(out, "  " + call("prescan<1>") + "prescan<1>\", __FILE__, __LINE__}, g, b, bytes)(o, i, n);\n"));
    CHECK(has(out, "  " + call("ns::prescan<1>") + "ns::prescan<1>\", __FILE__, __LINE__},  g, b )  (o, i, n);\n"));
    CHECK(has(out, "  " + call("ns::prescan<1>") + "ns::prescan<1>\", __FILE__, __LINE__}\n, g,\n         b)\n      (o, i, n);\n"));
    CHECK(has(out, call("ns::nested<ns::Wrap<int, 2>, 3>") + "ns::nested<ns::Wrap<int,2>,3>\", __FILE__, __LINE__}, 1, 1)(o);"));
    CHECK(has(out, call("ns::nested<Wrap<int>>") + "ns::nested<Wrap<int>>\", __FILE__, __LINE__}, 1, 1)(o);"));
    CHECK(has(out, call("ns::packed<int>") + "ns::packed<int>\", __FILE__, __LINE__}, 1, 1)(p, 1, 2.0);"));
    CHECK(has(out, call("ns::bounded<3>") + "ns::bounded<3>\", __FILE__, __LINE__}, 1, 1)(o);"));
    CHECK(has(out, call("ns::prescan<>") + "ns::prescan<>\", __FILE__, __LINE__}, 1, 1)(o, i, n);"));
    CHECK(has(out, call("ns::prescan<\n      2>") + "ns::prescan<2>\", __FILE__, __LINE__}\n, 1, 1)(o, i, n);"));
    // Every argument written: the kernel's address, whose parameter types convert the arguments.
    CHECK(has(out, "::simt::launch(ns::prescan<1, float>, {\"ns::prescan<1,float>\", __FILE__, __LINE__}, 1, 1)(o, i, n);"));
}

TEST_CASE("rewriter: a partly deduced launch in a file compiled twice: the device pass registers the call") {
    const std::string src =
        "template <int B, typename T>\n__global__ void k(T* out) {\n#ifdef __CUDA_ARCH__\n  out[0] = B;\n#endif\n}\n"
        "void f(float* o) { k<2><<<1, 32>>>(o); }\n";
    const std::string out = simt::rewrite(src, "d.cu");
    CHECK(has(out, "void f(float* o) { ::simt::launch_call(::simt::Site<0>{}, [] {}, [&](auto&&... a) { k<2>(a...); }, "
                   "{\"k<2>\", __FILE__, __LINE__}, 1, 32)(o); }\n"));
    CHECK(has(out, "void f(float* o) { ::simt::device_call(::simt::Site<0>{}, [] {}, [](auto&&... a) { k<2>(a...); })(o); }\n"));
}
