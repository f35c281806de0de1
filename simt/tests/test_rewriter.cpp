// The emulator's own suite, the rewriter: launches, shared memory, casts and
// variables rewritten on the same lines; what the emulator cannot run; library scans.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "limits.hpp"
#include "rewrite.hpp"
#include "source_text.hpp"

namespace {

std::size_t count_lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

}  // namespace

TEST_CASE("rewriter: launches become simt::launch calls on the same lines") {
    const std::string src =
        "void f() {\n"
        "  k<<<g, b>>>(x);\n"
        "  ns::k2<<<dim3(1, 2),\n"
        "           64, 0>>>(y);\n"
        "  tk<float><<<1, 2>>>(z);  // k<<<in a comment>>>\n"
        "  puts(\"a<<<b>>>c\");\n"
        "  p.kernel<<<1, 64>>>(a); table->k[i + 1]<<<2, 32>>>(b);\n"
        "}\n";
    const std::string out = simt::rewrite(src, "dir/lab.cu");
    CHECK(out.rfind("#include <simt/nvcc.hpp>\n#include <simt/cuda.hpp>\n#line 1 \"dir/lab.cu\"\n", 0) == 0);
    CHECK(count_lines(out) == count_lines(src) + 3);  // only the three header lines added
    CHECK(out.find("::simt::launch(k, {\"k\", __FILE__, __LINE__}, g, b)(x);") != std::string::npos);
    CHECK(out.find("::simt::launch(ns::k2, {\"ns::k2\", __FILE__, __LINE__}, dim3(1, 2),\n           64, 0)(y);") !=
          std::string::npos);
    CHECK(out.find("::simt::launch(tk<float>, {\"tk<float>\", __FILE__, __LINE__}, 1, 2)(z);") != std::string::npos);
    CHECK(out.find("// k<<<in a comment>>>") != std::string::npos);
    CHECK(out.find("puts(\"a<<<b>>>c\");") != std::string::npos);
    CHECK(out.find("::simt::launch(p.kernel, {\"p.kernel\", __FILE__, __LINE__}, 1, 64)(a);") != std::string::npos);
    CHECK(out.find("::simt::launch(table->k[i + 1], {\"table->k[i+1]\", __FILE__, __LINE__}, 2, 32)(b);") != std::string::npos);
}

TEST_CASE("rewriter: a template kernel launched without its arguments is called, deducing them") {
    const std::string src =
        "template <typename T>\n"
        "__global__ void scan(const T* in, T* out) {}\n"
        "void f(const float* a, float* b) { scan<<<1, 32>>>(a, b); scan<float><<<1, 32>>>(a, b); }\n";
    const std::string out = simt::rewrite(src, "s.cu");
    CHECK(out.find("::simt::launch_call([&](auto&&... a) { scan(a...); }, {\"scan\", __FILE__, __LINE__}, 1, 32)(a, b);") !=
          std::string::npos);
    CHECK(out.find("::simt::launch(scan<float>, {\"scan<float>\", __FILE__, __LINE__}, 1, 32)(a, b);") != std::string::npos);
}

TEST_CASE("rewriter: a file that uses __CUDA_ARCH__ becomes a host pass and a device pass, lines kept") {
    const std::string src =
        "#include <cstdio>\n"
        "namespace lab {\n"
        "__device__ unsigned count, a[4];\n"
        "constexpr __device__ int kBlock = 32;\n"
        "__global__ void k(float* p) {\n"
        "#ifdef __CUDA_ARCH__\n"
        "  p[0] = __CUDA_ARCH__;\n"
        "#endif\n"
        "}\n"
        "}\n"
        "void f(float* p) { lab::k<<<1, kBlock>>>(p); }\n";
    const std::string out = simt::rewrite(src, "arch.cu");
    const std::size_t device = out.find("#define __CUDA_ARCH__ 900\nnamespace __simt_device {\n#line 1 \"arch.cu\"\n");
    REQUIRE(device != std::string::npos);
    const std::string host_pass = out.substr(0, device), device_pass = out.substr(device);
    CHECK(host_pass.find("::simt::launch(::simt::Site<0>{}, [] {}, lab::k, {\"lab::k\", __FILE__, __LINE__}, 1, kBlock)(p);") !=
          std::string::npos);
    // The device pass: includes blank (the host pass made them), one variable
    // for both passes, constants as they are, the site registering its kernel.
    CHECK(device_pass.find("#include") == std::string::npos);
    CHECK(device_pass.find("static auto& count = ::lab::count; static auto& a = ::lab::a;") != std::string::npos);
    CHECK(device_pass.find("constexpr __device__ int kBlock = 32;") != std::string::npos);
    CHECK(device_pass.find("::simt::device_kernel<0, &lab::k>(::simt::Site<0>{}, [] {})(p);") != std::string::npos);
    const std::string end = "\n}  // namespace __simt_device\n#undef __CUDA_ARCH__\n#pragma GCC diagnostic pop\n";
    CHECK(out.rfind(end) == out.size() - end.size());
    CHECK(count_lines(device_pass) == count_lines(src) + 3 + 4);  // #define, namespace, #line; the closing lines
    // Its launches drop their configurations: no unused-variable warnings there.
    CHECK(host_pass.find("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n") != std::string::npos);
    // A file without __CUDA_ARCH__ is compiled once.
    CHECK(simt::rewrite("__global__ void k() {}\n", "x.cu").find("__simt_device") == std::string::npos);
}

TEST_CASE("rewriter: extern __shared__ becomes the block's dynamic shared memory") {
    const std::string src = "__global__ void k() {\n  extern __shared__ float tile[];\n  extern\n __shared__ int x[ ];\n}\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("float* tile = ::simt::dynamic_shared_as<float>();") != std::string::npos);
    CHECK(out.find("int* x = ::simt::dynamic_shared_as<int>();\n") != std::string::npos);
    CHECK(count_lines(out) == count_lines(src) + 3);
}

TEST_CASE("rewriter: __noinline__ in the lab's code only, never as a macro over system headers") {
    const std::string src = "__device__ __noinline__ float f();  // __noinline__\nint __noinline__x;\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("__device__ __attribute__((noinline)) float f();  // __noinline__\n") != std::string::npos);
    CHECK(out.find("int __noinline__x;") != std::string::npos);
#ifdef __noinline__
    FAIL("the shim defines __noinline__, which breaks __attribute__((__noinline__)) in system headers");
#endif
}

TEST_CASE("rewriter: every __shared__ variable of a function is declared to the runtime, commas included") {
    const std::string src = "__global__ void k() {\n  __shared__ float a[4], b[2][3];\n  __shared__ unsigned t;\n"
                            "  __shared__ cuda::atomic<int, cuda::thread_scope_block> n, m[2];\n}\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("__shared__ float a[4], b[2][3]; ::simt::declare_shared(&a, sizeof(a), \"a\", __LINE__); "
                   "::simt::declare_shared(&b, sizeof(b), \"b\", __LINE__);\n") != std::string::npos);
    CHECK(out.find("__shared__ unsigned t; ::simt::declare_shared(&t, sizeof(t), \"t\", __LINE__);\n") !=
          std::string::npos);
    CHECK(out.find("__shared__ cuda::atomic<int, cuda::thread_scope_block> n, m[2]; ::simt::declare_shared(&n, "
                   "sizeof(n), \"n\", __LINE__); ::simt::declare_shared(&m, sizeof(m), \"m\", __LINE__);\n") !=
          std::string::npos);  // a template's commas are not the declarators'
    CHECK(count_lines(out) == count_lines(src) + 3);
    // At namespace scope: test_rewriter_forms.cpp.
}

TEST_CASE("rewriter: reinterpret_cast becomes the checked cast, its type named as written") {
    const std::string src = "auto p = reinterpret_cast<const float4 *>(in + 1)[t];\n"
                            "auto q = reinterpret_cast<\n  volatile unsigned long long*> (s);  // reinterpret_cast<int>(x)\n"
                            "int my_reinterpret_cast(int);\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("auto p = ::simt::reinterpret_checked<const float4 *>(\"const float4 *\", in + 1)[t];\n") !=
          std::string::npos);
    CHECK(out.find("auto q = ::simt::reinterpret_checked<\n  volatile unsigned long long*>(\"volatile unsigned long "
                   "long*\", s);  // reinterpret_cast<int>(x)\n") != std::string::npos);
    CHECK(out.find("int my_reinterpret_cast(int);") != std::string::npos);
    CHECK(count_lines(out) == count_lines(src) + 3);
}

TEST_CASE("rewriter: memcpy, memmove and memset become the shim's checked ones, in the lab's code only") {
    const std::string src = "memcpy(a, b, 8); std::memcpy(a, b, n); ::memmove(a, b, 4);\n"
                            "__builtin_memcpy(t, in, 32); __builtin_memset(p, 0, 64); memset (p, 1, n);\n"
                            "q.memcpy(a); r->memset(b); my_memcpy(c); const char* s = \"memcpy\";  // memcpy(x)\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("__simt_memcpy(a, b, 8); std::__simt_memcpy(a, b, n); ::__simt_memmove(a, b, 4);\n"
                   "__simt_memcpy(t, in, 32); __simt_memset(p, 0, 64); __simt_memset (p, 1, n);\n"
                   "q.memcpy(a); r->memset(b); my_memcpy(c); const char* s = \"memcpy\";  // memcpy(x)\n") !=
          std::string::npos);
    CHECK(count_lines(out) == count_lines(src) + 3);
}

TEST_CASE("rewriter: the lines it changed are told to the runtime with how much of each it kept, no line added") {
    // Line 1 changes from column 10 on (its cast), line 2 from 23 (its
    // launch); lines 3 and 4 are as written. A report's column past what a
    // line kept would point elsewhere in the .cu: symbolize.cpp drops it.
    const std::string src = "auto p = reinterpret_cast<const float4 *>(in)[t];\n"
                            "void f() { if (n > 0) k<<<1, 32>>>(p); }\n"
                            "__global__ void k(float* p) { p[threadIdx.x] += 1; }\n"
                            "// the end\n";
    const std::string out = simt::rewrite(src, "dir/c.cu");
    CHECK(out.find("const unsigned __simt_kept_columns[] = {1, 9, 2, 22, 0}; [[maybe_unused]] const bool "
                   "__simt_kept_columns_noted = ::simt::note_kept_columns(\"dir/c.cu\", __simt_kept_columns); }") !=
          std::string::npos);
    CHECK(count_lines(out) == count_lines(src) + 3);
    // A file without a newline at its end: the call goes on a line of its own, after the comment.
    const std::string bare = simt::rewrite("__global__ void k() {}\n// no newline", "d.cu");
    CHECK(bare.find("// no newline\nnamespace { [[maybe_unused]] const unsigned __simt_kept_columns[] = {0};") !=
          std::string::npos);
}

TEST_CASE("rewriter: __device__ and __constant__ variables at namespace scope are registered, on the same line") {
    const std::string src =
        "__device__ int counter = 0;\n"                              // 1
        "__constant__ float c[4] = {1, 2, 3, 4};\n"                 // 2
        "static __device__ unsigned a[8], b{3};\n"                   // 3
        "namespace ns { __device__ __align__(16) float v[4]; }\n"    // 4
        "extern __device__ int elsewhere;\n"                         // 5: a declaration
        "template <typename T> __device__ T per_type;\n"             // 6: a template
        "__device__ int twice(int x) { return 2 * x; }\n"            // 7: a function
        "__host__ __device__ float f(float);\n"                      // 8
        "__global__ void k() { __shared__ int t[2]; static __device__ int s; }\n"  // 9: in a function
        "// __device__ int in_a_comment;\n"                          // 10
        "#define DEVICE __device__\n";                               // 11
    const std::string out = simt::rewrite(src, "v.cu");
    CHECK(count_lines(out) == count_lines(src) + 3);
    const auto registered = [&](const std::string& name) {
        return out.find("::simt::declare_device_variable(__builtin_addressof(" + name + "), sizeof(" + name + "), \"" +
                        name + "\", __LINE__);") != std::string::npos;
    };
    CHECK(out.find("__device__ int counter = 0; [[maybe_unused]] static const bool simt_device_variable_1 = ") !=
          std::string::npos);
    for (const char* name : {"counter", "c", "a", "b", "v"}) CHECK(registered(name));
    for (const char* name : {"elsewhere", "per_type", "twice", "f", "s", "in_a_comment", "DEVICE"}) CHECK(!registered(name));
    CHECK(out.find("simt_device_variable_6") == std::string::npos);
}

TEST_CASE("rewriter: what it cannot parse is an error naming the line") {
    CHECK_THROWS_WITH_AS(simt::rewrite("a\nk<<<1, 2(x);\n", "a.cu"),
                         "a.cu:2: kernel launch '<<<' has no closing '>>>'", simt::RewriteError);
    CHECK_THROWS_WITH_AS(simt::rewrite("x = <<<1, 2>>>(y);\n", "a.cu"),
                         "a.cu:1: cannot find the kernel name before '<<<'", simt::RewriteError);
    CHECK_THROWS_WITH_AS(simt::rewrite("extern __shared__ float t[4];\n", "b.cu"),
                         "b.cu:1: expected 'extern __shared__ T name[];'", simt::RewriteError);
}

TEST_CASE("limits: what the emulator cannot run, by line, in program text only") {
    const std::string source =
        "#include <cuda_runtime.h>\n"              // 1: the shim provides it
        "#include <cub/cub.cuh>\n"                 // 2
        "  #  include \"cuda/annotated_ptr\"\n"   // 3: a CUDA header the shim lacks
        "// asm(\"x\"); tex1Dfetch in a comment\n"  // 4
        "__global__ void k(float* p) {\n"          // 5
        "    const char* s = \"thrust::sort\";\n"  // 6
        "    asm volatile(\"\"); __asm__(\"\");\n"   // 7: one per construct and line
        "    p[0] = tex1Dfetch<float>(t, 0);\n"     // 8
        "    cub::BlockScan<float, 32> scan;\n"    // 9
        "    int my_asm = 0, cuber = 1;\n"         // 10: words that only contain the names
        "    cuda::annotated_ptr<float> q;\n"       // 11: a use of line 3's header
        "}\n";
    const std::vector<simt::Limit> found = simt::find_limits(source, SHIM_DIR);
    REQUIRE(found.size() == 5);
    CHECK((found[0].construct == "CUB" && found[0].written == "#include <cub/cub.cuh>" && found[0].line == 2));
    CHECK((found[1].construct == "a CUDA header the emulator does not provide" && found[1].line == 3));
    CHECK((found[2].construct == "inline PTX" && found[2].written == "asm" && found[2].line == 7));
    CHECK((found[3].construct == "textures and surfaces" && found[3].written == "tex1Dfetch" && found[3].line == 8));
    CHECK((found[4].construct == "CUB" && found[4].written == "cub::" && found[4].line == 9));
    CHECK(simt::find_limits("#include <cuda_runtime.h>\n__global__ void k() {}\n", SHIM_DIR).empty());
    // libcu++'s atomics, and the plain cuda/std headers beside them, are the shim's.
    CHECK(simt::find_limits("#include <cuda/atomic>\n#include <cuda/std/atomic>\n#include <cuda/std/cstdint>\n"
                            "#include <cuda/std/type_traits>\n#include <cuda/std/limits>\n#include <cuda/std/utility>\n"
                            "#include <cuda/std/functional>\n",
                            SHIM_DIR)
              .empty());
    CHECK(simt::find_limits("#include <cuda/barrier>\n__shared__ cuda::barrier<cuda::thread_scope_block> b;\n", SHIM_DIR).size() == 1);
    // A launch the device pass of a file using __CUDA_ARCH__ cannot see (rewrite.hpp).
    const std::vector<simt::Limit> hidden = simt::find_limits(
        "#ifdef __CUDA_ARCH__\nint a;\n#else\nvoid f() { k<<<1, 1>>>(); }\n#endif\n"
        "#if !defined(__CUDA_ARCH__)\nvoid g() { k<<<1, 1>>>(); }\n#endif\nvoid h() { k<<<1, 1>>>(); }\n",
        SHIM_DIR);
    REQUIRE(hidden.size() == 2);
    CHECK((hidden[0].line == 4 && hidden[1].line == 7 && hidden[0].written == "<<<"));
    CHECK(simt::find_limits("#ifndef X\nvoid f() { k<<<1, 1>>>(); }\n#endif\n", SHIM_DIR).empty());
    CHECK(simt::find_limits("#include <vector_types.h>\n#include <vector_functions.h>\n", SHIM_DIR).empty());

    std::string file;
    const std::vector<simt::Limit> back = simt::decode_limits(simt::encode_limits("scan.cu", found), &file);
    CHECK(file == "scan.cu");
    REQUIRE(back.size() == found.size());
    CHECK((back[2].construct == "inline PTX" && back[2].written == "asm" && back[2].line == 7));
    CHECK(simt::summarize("scan.cu", found) == "`#include <cub/cub.cuh>` (CUB) at scan.cu:2 (and 4 more)");
    const std::string told = simt::explain_for_student("scan.cu", {found[2]});
    CHECK(told.rfind("scan.cu:7: `asm` (inline PTX) is beyond the CPU emulator\nThis is the kit's limit, not a bug in your code.", 0) == 0);
    // The marker the rewriter builds such a file into: the records as a C string.
    const std::string marker = simt::limits_marker("labs/x/scan.cu", {found[2]});
    CHECK(marker.find("extern \"C\" const char simt_kit_limits[] = \"scan.cu\\n7\\tinline PTX\\tasm\\n\";") !=
          std::string::npos);
}

TEST_CASE("limits: an #include of a header the emulator lacks counts only where the code uses it") {
    const std::string kernel = "__global__ void k(float* p) { p[threadIdx.x] = 0; }\n";
    // Unused: left out, with its line, and no limit.
    const std::string unused = "#include \"scan.hpp\"\n#include <cub/cub.cuh>  // cub::BlockScan, later\n" + kernel +
                               "const char* s = \"thrust::device\";\n";
    CHECK(simt::find_limits(unused, SHIM_DIR).empty());
    const std::vector<simt::Limit> left = simt::unused_includes(unused, SHIM_DIR);
    REQUIRE(left.size() == 1);
    CHECK((left[0].construct == "CUB" && left[0].written == "#include <cub/cub.cuh>" && left[0].line == 2));
    // Blanked to the end of the directive only: the comment after it and every line stay.
    const std::string built = simt::without_includes(unused, left);
    CHECK(built.find("\n                        // cub::BlockScan, later\n") != std::string::npos);
    CHECK(std::count(built.begin(), built.end(), '\n') == std::count(unused.begin(), unused.end(), '\n'));
    CHECK(simt::without_includes("#include <cub/cub.cuh> /* a\n b */ int x;\n", simt::unused_includes("#include <cub/cub.cuh> /* a\n b */ int x;\n", SHIM_DIR)) ==
          "                       /* a\n b */ int x;\n");
    // Used, however the code names the library: a limit, nothing left out.
    for (const char* use : {"cub::Sum op;", "using namespace cub;", "namespace c = cub;", "int m = CUB_MAX(1, 2);",
                            "#ifdef CUB_VERSION\n#endif", "#define NS cub"}) {
        const std::string source = "#include <cub/cub.cuh>\n" + kernel + use + "\n";
        CAPTURE(use);
        const std::vector<simt::Limit> found = simt::find_limits(source, SHIM_DIR);
        REQUIRE(!found.empty());
        CHECK((found[0].written == "#include <cub/cub.cuh>" && found[0].line == 1));
        CHECK(simt::unused_includes(source, SHIM_DIR).empty());
    }
    CHECK(simt::find_limits("#include <thrust/scan.h>\n" + kernel, SHIM_DIR).empty());
    CHECK(simt::find_limits("#include <thrust/pair.h>\n__device__ thrust::pair<int, int> best;\n", SHIM_DIR).size() == 2);
    CHECK(simt::find_limits("#include <thrust/version.h>\n#if THRUST_VERSION > 1\n#endif\n", SHIM_DIR).size() == 1);
    // Half precision: its names, not __host__.
    CHECK(simt::find_limits("#include <cuda_fp16.h>\n__host__ __device__ float f(float x) { return x; }\n", SHIM_DIR).empty());
    CHECK(simt::find_limits("#include <cuda_fp16.h>\n__device__ __half h;\n", SHIM_DIR).size() == 1);
    CHECK(simt::find_limits("#include <cuda_fp16.h>\n__device__ float f(float x) { return __half2float(__float2half(x)); }\n",
                            SHIM_DIR)
              .size() == 1);
    // CUDA's own headers declare names the shim declares elsewhere: never a use, so left out, as written.
    const std::string vs = "#include \"cuda_runtime.h\"\n#include \"device_launch_parameters.h\"\n" + kernel;
    CHECK(simt::find_limits(vs, SHIM_DIR).empty());
    const std::vector<simt::Limit> vs_left = simt::unused_includes(vs, SHIM_DIR);
    REQUIRE(vs_left.size() == 1);
    CHECK((vs_left[0].written == "#include \"device_launch_parameters.h\"" && vs_left[0].line == 2));
    // Another limit keeps the file off the emulator whatever it includes: nothing is left out of a marker.
    CHECK(simt::find_limits("#include <cub/cub.cuh>\n__device__ void f() { asm(\"\"); }\n", SHIM_DIR).size() == 1);
}

TEST_CASE("source text: comments, literals and header-names as the compiler reads them") {
    using simt::text::Span;
    const auto masked = [](const std::string& s) {  // s with its non-program text as '.'
        std::string out = s;
        const std::vector<bool> code = simt::text::code_mask(s);
        for (std::size_t i = 0; i < s.size(); ++i)
            if (!code[i] && s[i] != '\n') out[i] = '.';
        return out;
    };
    CHECK(masked("a // b \\\n c\nd") == "a ......\n..\nd");  // a splice continues a // comment
    CHECK(masked("a /* b *\\\n/ c") == "a .......\n. c");      // and a spliced */ ends a block comment
    CHECK(masked("x = R\"(a\")\" + y; // z") == "x = R...... + y; ....");
    CHECK(masked("x = u8R\"d(a)\" b)d\" c") == "x = u8R........... c");
    CHECK(masked("n = 1'000'000; c = 'a'; s = L\"b\";") == "n = 1'000'000; c = ...; s = L...;");
    CHECK(masked("#include <a//b.h>\n#include \"c\\\" // d\n") == "#include ........\n#include .... ....\n");
    CHECK(masked("#if __has_include(<x/*y>)\nint a;\n#endif") == "#if __has_include(......)\nint a;\n#endif");
    const std::string s = "const char* a = \"\\x2e\\151nc\\\"bin\\n\"; const char* b = R\"q(x\\ny)q\";";
    std::vector<std::string> values;
    for (const Span& span : simt::text::spans(s))
        if (span.kind == Span::Literal) values.push_back(simt::text::literal_value(s, span));
    CHECK(values == std::vector<std::string>{".inc\"bin\n", "x\\ny"});
    CHECK(simt::text::spliced("a \\\nb \\  \nc\nd\n") == "a b c\n\n\nd\n");
    CHECK(simt::text::program_text("#include \"x.h\" // y\nint s = \"t\";\n") == "#include \"x.h\"     \nint s =    ;\n");
    const std::vector<simt::text::Include> in =
        simt::text::includes("// #include <no.h>\n  %: include_next <a.h>\n#include \"b.h\"\n#include MACRO\n",
                             simt::text::code_mask("// #include <no.h>\n  %: include_next <a.h>\n#include \"b.h\"\n#include MACRO\n"));
    REQUIRE(in.size() == 2);
    CHECK((in[0].name == "a.h" && in[0].angled && in[0].line == 2 && in[0].begin == 21));
    CHECK((in[1].name == "b.h" && !in[1].angled && in[1].line == 3));
}

TEST_CASE("library scans: CUB's and Thrust's scans, not their other names nor cooperative groups' scans") {
    const std::string source =
        "#include <cub/cub.cuh>\n"                                        // 1
        "#include <thrust/pair.h>\n"                                      // 2
        "// cub::DeviceScan::InclusiveSum in a comment\n"                 // 3
        "__device__ thrust::pair<int, float> best;\n"                     // 4: not a scan
        "void f(float* a, float* b, int n) {\n"                           // 5
        "    cub::DeviceScan::InclusiveSum(0, bytes, a, b, n);\n"         // 6
        "    thrust :: inclusive_scan(thrust::device, a, a + n, b);\n"    // 7
        "    typedef cub::BlockScan<float, 128> S; cub::Sum op;\n"        // 8: BlockScan, not Sum
        "    cg::inclusive_scan(tile, x); std::exclusive_scan(a, a, b);\n"  // 9: CUDA's and C++'s own
        "    float my_inclusive_scan = 0; BlockScan x;\n"                  // 10: unqualified, no using
        "}\n";
    const std::vector<simt::Limit> found = simt::find_library_scans(source);
    REQUIRE(found.size() == 3);
    CHECK((found[0].construct == "CUB" && found[0].written == "cub::DeviceScan" && found[0].line == 6));
    CHECK((found[1].construct == "Thrust" && found[1].written == "thrust::inclusive_scan" && found[1].line == 7));
    CHECK((found[2].construct == "CUB" && found[2].written == "cub::BlockScan" && found[2].line == 8));
    // After a using directive an unqualified name counts; one another namespace qualifies does not.
    const std::vector<simt::Limit> opened = simt::find_library_scans(
        "using namespace thrust;\nusing namespace cub;\nvoid f() { exclusive_scan(device, a, a, b); "
        "cg::exclusive_scan(t, 1); WarpScan<int> w; }\n");
    REQUIRE(opened.size() == 2);
    CHECK((opened[0].written == "thrust::exclusive_scan" && opened[0].line == 3));
    CHECK((opened[1].written == "cub::WarpScan" && opened[1].construct == "CUB"));
    CHECK(simt::find_library_scans("#include <thrust/pair.h>\nthrust::pair<int, int> p; cub::Max m;\n").empty());
}

TEST_CASE("rewriter: cudaLaunchKernel's kernel loses its void* cast and names the launch") {
    const std::string src =
        "void f(void** a) {\n"
        "  cudaLaunchKernel((void*)scan, g, b, a, 0, 0);\n"
        "  cudaLaunchCooperativeKernel(reinterpret_cast<void *>(k<float, 4>), g, b, a);\n"
        "  cudaLaunchKernel(scan, dim3(2), dim3(32), a);\n"
        "}\n";
    const std::string out = simt::rewrite(src, "lab.cu");
    CHECK(count_lines(out) == count_lines(src) + 3);
    CHECK(out.find("cudaLaunchKernel(::simt::ApiLaunchSite{{\"scan\", __FILE__, __LINE__}}, scan, g, b, a, 0, 0);") !=
          std::string::npos);
    CHECK(out.find("cudaLaunchCooperativeKernel(::simt::ApiLaunchSite{{\"k<float,4>\", __FILE__, __LINE__}}, (k<float, 4>), g, b, a);") !=
          std::string::npos);
    CHECK(out.find("cudaLaunchKernel(::simt::ApiLaunchSite{{\"scan\", __FILE__, __LINE__}}, scan, dim3(2), dim3(32), a);") !=
          std::string::npos);
}
