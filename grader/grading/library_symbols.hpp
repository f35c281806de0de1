// CUB's and Thrust's scans as a compiled lab holds them, whatever its source
// spelt: a computed #include, a namespace alias or a name no list has still
// compiles to the libraries' names. An object's symbols (host functions, the
// host stubs of kernels) and the device code's own names embedded in it (its
// kernels', and with -lineinfo those of the functions inlined into them:
// BlockScan inside a student's kernel) are read, demangled and classified.
// What the rubric's forbid list refuses (grade.cpp), after the source text's
// quick look (simt::find_library_scans).
#pragma once

#include <string>
#include <vector>

#include "limits.hpp"

namespace grader {

struct LibraryScan {
    std::string library;  // as the rubric names it: "CUB", "Thrust"
    std::string name;     // as the feedback shows it: "cub::DeviceScan::InclusiveSum"
    // For the order of several (best first): the symbol's own name rather
    // than one of its template arguments; the higher of CUB's layers
    // (Device, Dispatch, Agent, Block, Warp, Thread); fewer internal
    // namespaces (detail, _-prefixed); shorter.
    bool own = false;
    int internal = 0;
};

// The scans of CUB and Thrust a demangled symbol names; none for most. A
// qualified name in it (the symbol's own, its template arguments' or its
// parameters') is a library's where one of its namespaces is `cub` or
// `thrust` (wrapped in another one too: CUB_WRAPPED_NAMESPACE) or their
// versioned inline namespaces (CUB_300001_SM_900, THRUST_300001_SM_900_NS);
// it is a scan where a name after that says "scan" or "prefix", in any case:
// DeviceScan, DeviceScanKernel, DispatchScan, AgentScan, BlockScan, WarpScan,
// ScanTileState, TilePrefixCallbackOp; inclusive_scan_by_key,
// transform_exclusive_scan, cuda_cub::inclusive_scan_n, __scan::ScanAgent.
// The libraries' other names (cub::Sum, cub::WarpReduce, cub::BlockLoad,
// thrust::pair, thrust::device_vector) are not scans, nor are cooperative
// groups' (CUDA's own), C++'s or libcu++'s sequential std:: ones.
std::vector<LibraryScan> scans_in_symbol(const std::string& demangled);

// The mangled C++ names (_Z...) anywhere in an object file's bytes: its
// symbol tables' (a kernel's host stub is __device_stub_ + the kernel's
// name), and the device images' it embeds (their symbols and debug strings),
// each once.
std::vector<std::string> mangled_names(const std::string& bytes);

// A mangled name demangled; "" where it is not one.
std::string demangle(const std::string& mangled);

// The library scans that the object files (or archives of them) hold, each
// (library, name) once, Thrust's first (its scans are CUB's underneath),
// then best first (LibraryScan). Files that cannot be read are skipped.
std::vector<LibraryScan> library_scans(const std::vector<std::string>& objects);

// The #define and #undef lines of `source` that rename or configure CUB or
// Thrust (`cub`, `thrust`, CUB_..., THRUST_...: CUB_NS_PREFIX,
// CUB_DISABLE_NAMESPACE_MAGIC, THRUST_WRAPPED_NAMESPACE), after which the
// compiled names need not say whose they are: as limits whose construct is
// the library and `written` the directive ("#define cub"), its line from 1.
// Lines joined by a backslash and comments are read as the preprocessor does.
std::vector<simt::Limit> library_renames(const std::string& source);

}  // namespace grader
