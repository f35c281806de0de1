// The library-scan classifier (library_symbols.hpp): which demangled symbols
// are CUB's or Thrust's scans, as nvcc 13.0's objects name them; the mangled
// names an object's bytes hold; the #defines that rename the libraries.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "grader/grading/library_symbols.hpp"

using namespace grader;

namespace {

// "CUB cub::DeviceScan::InclusiveSum" per scan found, in the symbol's order.
std::vector<std::string> found(const std::string& demangled) {
    std::vector<std::string> out;
    for (const LibraryScan& s : scans_in_symbol(demangled)) out.push_back(s.library + " " + s.name);
    return out;
}

}  // namespace

TEST_CASE("library symbols: CUB's and Thrust's scans, however they were reached") {
    using V = std::vector<std::string>;
    // CUB's device-wide scan, its kernels and dispatch (host symbols and stubs).
    CHECK(found("cudaError cub::CUB_300001_SM_900::DeviceScan::InclusiveSum<float const*, float*, unsigned long>(void*, "
                "unsigned long&, float const*, float*, unsigned long, CUstream_st*)") ==
          V{"CUB cub::DeviceScan::InclusiveSum"});
    CHECK(found("void cub::CUB_300001_SM_900::detail::scan::DeviceScanKernel<cub::CUB_300001_SM_900::detail::scan::"
                "policy_hub<float, float, float, unsigned long long, cuda::std::__4::plus<void> >::Policy1000, float "
                "const*, float*, int>(float const*, float*, int)")
              .front() == "CUB cub::detail::scan::DeviceScanKernel");
    CHECK(found("cub::DispatchScan<float const*, float*, cub::Sum, cub::NullType, int>::Dispatch(void*, unsigned long&)") ==
          V{"CUB cub::DispatchScan::Dispatch"});
    // Block and warp scans, inlined into a student's kernel (the device code's debug strings).
    CHECK(found("cub::CUB_300001_SM_900::BlockScan<float, 256, (cub::CUB_300001_SM_900::BlockScanAlgorithm)0, 1, 1>::"
                "InclusiveSum(float, float&)")
              .front() == "CUB cub::BlockScan::InclusiveSum");
    CHECK(found("cub::CUB_300001_SM_900::detail::WarpScanShfl<int, 32>::InclusiveScan(int, int&)") ==
          V{"CUB cub::detail::WarpScanShfl::InclusiveScan"});
    CHECK(found("cub::TilePrefixCallbackOp<float, cub::Sum, cub::ScanTileState<float, true> >::operator()(float)").size() == 2);
    // In a template argument of the student's own kernel.
    CHECK(found("void my_kernel<cub::CUB_300001_SM_900::BlockScan<float, 128> >(float*)") == V{"CUB cub::BlockScan"});
    // Wrapped (CUB_WRAPPED_NAMESPACE), or named by the versioned namespace alone.
    CHECK(found("outer::cub::DeviceScan::ExclusiveSum(void*)") == V{"CUB outer::cub::DeviceScan::ExclusiveSum"});
    CHECK(found("x::CUB_200500_SM_900_NS::DeviceScanKernel<int>(int)") == V{"CUB x::CUB_200500_SM_900_NS::DeviceScanKernel"});
    // Thrust: its algorithms (one no deny list had), by key and transform,
    // and its CUDA backend's kernels.
    CHECK(found("float* thrust::THRUST_300001_SM_900_NS::cuda_cub::inclusive_scan_n<thrust::THRUST_300001_SM_900_NS::"
                "cuda_cub::par_t, float const*, unsigned long, float*, cuda::std::__4::plus<float> >(thrust::"
                "THRUST_300001_SM_900_NS::cuda_cub::execution_policy<thrust::THRUST_300001_SM_900_NS::cuda_cub::par_t>&, "
                "float const*, unsigned long, float*, cuda::std::__4::plus<float>)") ==
          V{"Thrust thrust::cuda_cub::inclusive_scan_n"});
    CHECK(found("int* thrust::inclusive_scan_by_key<int*, int*, int*>(int*, int*, int*, int*)") ==
          V{"Thrust thrust::inclusive_scan_by_key"});
    CHECK(found("float* thrust::transform_exclusive_scan<float*, float*, neg, float, thrust::plus<float> >(float*)") ==
          V{"Thrust thrust::transform_exclusive_scan"});
    CHECK(found("void thrust::cuda_cub::core::_kernel_agent<thrust::cuda_cub::__scan::ScanAgent<float*, float*>, "
                "float*>(float*)") == V{"Thrust thrust::cuda_cub::__scan::ScanAgent"});
}

TEST_CASE("library symbols: the libraries' other names, CUDA's, C++'s and the student's own scans are not refused") {
    for (const char* allowed : {
             "cub::CUB_300001_SM_900::Sum::operator()<float, float>(float const&, float const&) const",
             "cub::CUB_300001_SM_900::WarpReduce<float, 32>::Sum(float)",
             "cub::CUB_300001_SM_900::BlockReduce<float, 256>::Reduce<cub::Sum>(float, cub::Sum)",
             "cub::CUB_300001_SM_900::BlockLoad<float, 128, 4>::Load(float const*, float (&) [4])",
             "cub::CUB_300001_SM_900::detail::max_smem_per_block",
             "thrust::THRUST_300001_SM_900_NS::pair<float, bool>::pair(float const&, bool const&)",
             "thrust::THRUST_300001_SM_900_NS::device_vector<float>::~device_vector()",
             "decltype ({parm#3}({parm#2}, {parm#2})) cooperative_groups::__v1::inclusive_scan<cooperative_groups::"
             "__v1::thread_block_tile<32u, void>, float const&, cooperative_groups::__v1::plus<float> >("
             "cooperative_groups::__v1::thread_block_tile<32u, void> const&, float const&, cooperative_groups::__v1::plus<float>&&)",
             "cooperative_groups::__v1::details::scan_dispatch<1u, (cooperative_groups::__v1::details::ScanType)0>::scan<int>(int)",
             "float* std::inclusive_scan<float*, float*>(float*, float*, float*)",
             "float* cuda::std::__4::exclusive_scan<float*, float*, float>(float*, float*, float*, float)",
             "hierarchical_scan(float const*, float*, unsigned long)",
             "void (anonymous namespace)::lookback_scan_kernel<false>(float const*, float*, unsigned long)",
             "my::cub_scan(float*)",
             "guard variable for cuda_cub_like::scan_total",
         })
        CHECK_MESSAGE(scans_in_symbol(allowed).empty(), allowed);
}

TEST_CASE("library symbols: the mangled names of an object's bytes, stubs' included") {
    using namespace std::string_literals;
    const std::string bytes = "\0_ZN3cub17CUB_300001_SM_90010DeviceScan12InclusiveSumEv\0"s +
                              "__device_stub__Z9my_kernelPf\x01\x7f" + "not_Zmangled" + "\0_Z"s;
    const std::vector<std::string> names = mangled_names(bytes);
    REQUIRE(names.size() == 3);
    CHECK(demangle(names[0]) == "cub::CUB_300001_SM_900::DeviceScan::InclusiveSum()");
    CHECK(demangle(names[1]) == "my_kernel(float*)");
    CHECK(demangle(names[2]).empty());  // _Zmangled: not a name
    CHECK(found(demangle(names[0])) == std::vector<std::string>{"CUB cub::DeviceScan::InclusiveSum"});
}

TEST_CASE("library symbols: #defines that rename or configure the libraries, as the preprocessor reads them") {
    const std::string source =
        "#define SCAN_BLOCK 256\n"                 // 1: the student's own
        "#define cub q  // renamed\n"              // 2
        "  #  undef   CUB_NS_QUALIFIER\n"          // 3
        "#def\\\nine THRUST_WRAPPED_NAMESPACE w\n"  // 4-5: one line, joined
        "/* #define thrust t */\n"                 // 6: a comment
        "# /* x */ define thrust t\n"              // 7
        "const char* s = \"#define cub\";\n"       // 8: a string
        "#define CUBE 3\n"                         // 9: not the library's
        "%:define CUB_DISABLE_NAMESPACE_MAGIC\n"   // 10: # as a digraph
        "auto r = R\"x(\")/*\n#define cub\n)x\";\n"  // 11-13: a raw string, no comment in it
        "#undef thrust // */\n";                   // 14
    const std::vector<simt::Limit> found = library_renames(source);
    REQUIRE(found.size() == 6);
    CHECK((found[0].construct == "CUB" && found[0].written == "#define cub" && found[0].line == 2));
    CHECK((found[1].construct == "CUB" && found[1].written == "#undef CUB_NS_QUALIFIER" && found[1].line == 3));
    CHECK((found[2].construct == "Thrust" && found[2].written == "#define THRUST_WRAPPED_NAMESPACE" && found[2].line == 4));
    CHECK((found[3].construct == "Thrust" && found[3].written == "#define thrust" && found[3].line == 7));
    CHECK((found[4].construct == "CUB" && found[4].written == "#define CUB_DISABLE_NAMESPACE_MAGIC" && found[4].line == 10));
    CHECK((found[5].construct == "Thrust" && found[5].written == "#undef thrust" && found[5].line == 14));
}
