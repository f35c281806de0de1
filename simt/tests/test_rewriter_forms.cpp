// The emulator's own suite, the rewriter on forms people write: template
// kernels launched with some template arguments written and the rest
// deduced, in the spellings and spacing seen in the wild, and `__shared__`
// variables at namespace scope. Each stays on its lines.
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

namespace {

// The registration the rewriter writes after a namespace-scope variable.
std::string registration(const std::string& name) {
    return "::simt::declare_static_shared<decltype(" + name +
           ")>([]() -> const volatile void* { return __builtin_addressof(" + name + "); }, \"" + name +
           "\", __LINE__);";
}

}  // namespace

TEST_CASE("rewriter: __shared__ variables at namespace scope are registered at start-up, on the same line") {
    const std::string src =
        "__shared__ float XY[1024];\n"                                   // 1
        "namespace lab { __shared__ int a[4], b[2][3], c[2][3][4]; }\n"  // 2: several names, 1-3 dimensions
        "static __shared__ float s1[8];\n"                               // 3
        "__shared__ static float s2[8];\n"                               // 4
        "struct Pair { int k; float v; };\n"                             // 5
        "__shared__ Pair pair;\n"                                        // 6
        "volatile __shared__ unsigned flag;\n"                           // 7
        "extern \"C\" { __shared__ int in_c[2]; }\n"                     // 8
        "namespace { __shared__ cuda::atomic<int, cuda::thread_scope_block> n, m[2]; }\n"  // 9
        "struct Holder { __shared__ int member; };\n"                    // 10: not CUDA: left alone
        "#define SHARED __shared__\n"                                    // 11
        "// __shared__ int in_a_comment[2];\n"                           // 12
        "static int counter;  __shared__ int after[2];\n";               // 13
    const std::string out = simt::rewrite(src, "s.cu");
    CHECK(count_lines(out) == count_lines(src) + 3);
    for (const char* name : {"XY", "a", "b", "c", "s1", "s2", "pair", "flag", "in_c", "n", "m", "after"}) {
        CAPTURE(name);
        CHECK(has(out, registration(name)));
    }
    for (const char* name : {"member", "SHARED", "in_a_comment"}) {
        CAPTURE(name);
        CHECK(!has(out, registration(name)));
    }
    // Each a static of its own, named in order, after the declaration's ';'.
    CHECK(has(out, "__shared__ float XY[1024]; [[maybe_unused]] static const bool simt_shared_variable_1 = " +
                       registration("XY") + "\n"));
    CHECK(has(out, "namespace lab { __shared__ int a[4], b[2][3], c[2][3][4]; [[maybe_unused]] static const bool "
                   "simt_shared_variable_2 = "));
    CHECK(has(out, "simt_shared_variable_4 = " + registration("c") + " }\n"));
    // The shim's __shared__ is `static` already: the one written is blanked,
    // its columns kept; any other declaration's is left.
    CHECK(has(out, "\n       __shared__ float s1[8];"));
    CHECK(has(out, "\n__shared__        float s2[8];"));
    CHECK(has(out, "\nstatic int counter;  __shared__ int after[2];"));
}

TEST_CASE("rewriter: a function's `static __shared__` loses its `static` too; an initialised one is left to g++") {
    const std::string src = "__global__ void k() {\n  static __shared__ float t[4];\n  static int calls;\n}\n";
    const std::string out = simt::rewrite(src, "f.cu");
    CHECK(has(out, "\n         __shared__ float t[4]; ::simt::declare_shared(&t, sizeof(t), \"t\", __LINE__);\n"));
    CHECK(has(out, "\n  static int calls;\n"));
}

TEST_CASE("rewriter: extern __shared__ at namespace scope names the launch's dynamic shared memory") {
    const std::string src = "extern __shared__ float temp[];\nnamespace ns {\nextern\n  __shared__ __align__(16) int x[ ];\n}\n"
                            "__global__ void k() { extern __shared__ char local[]; }\n";
    const std::string out = simt::rewrite(src, "e.cu");
    CHECK(count_lines(out) == count_lines(src) + 3);
    CHECK(has(out, "\nextern float temp[] __asm__(\"simt_dynamic_shared_memory\");\n"));
    CHECK(has(out, "\nextern __align__(16) int x[] __asm__(\"simt_dynamic_shared_memory\");\n\n}\n"));
    CHECK(has(out, "{ char* local = ::simt::dynamic_shared_as<char>(); }"));  // in a function, as before
}
