// What the CPU emulator cannot run: the constructs of a .cu file that nvcc
// accepts and the emulator does not model (inline PTX, CUB and Thrust,
// textures, ...), found in the file's text. One table (limits.cpp) serves the
// rewriter, which builds such a file into a marker instead of code so its lab
// is skipped, not failed, and the grader, which grades such a lab on a GPU.
// An #include of a header the emulator lacks is a limit only where the code
// uses the header; an unused one is left out of the emulator's build.
#pragma once

#include <string>
#include <vector>

namespace simt {

struct Limit {
    std::string construct;  // what the emulator cannot run: "inline PTX"
    std::string written;    // how the file wrote it: "asm", "#include <cub/cub.cuh>"
    int line = 0;           // in the file, from 1
};

// The limits of `source`, in source order, one per construct and line.
// `shim_dir`: the emulator's include folder (simt/include), where a CUDA
// header the emulator provides is found; every other header of the CUDA
// toolkit is a limit.
std::vector<Limit> find_limits(const std::string& source, const std::string& shim_dir);

// The #includes of `source` of headers the emulator does not provide that
// its code does not use (limits.cpp's kHeaders says how each kind is
// judged), as limits that find_limits leaves out; and `source` with their
// directives blanked (lines and columns kept), what the rewriter builds.
std::vector<Limit> unused_includes(const std::string& source, const std::string& shim_dir);
std::string without_includes(const std::string& source, const std::vector<Limit>& unused);

// The scans of CUB and Thrust that `source` calls, as limits whose construct
// names the library ("CUB", "Thrust") and `written` the scan
// ("cub::DeviceScan", "thrust::inclusive_scan"): CUB's DeviceScan, BlockScan
// and WarpScan, Thrust's six scan algorithms, qualified or after a using
// directive of their namespace. What a rubric's forbid list rejects; the
// libraries' other names (thrust::pair, cub::Sum) are limits of the emulator
// alone, and cooperative groups' scans are CUDA's own.
std::vector<Limit> find_library_scans(const std::string& source);

// The records the rewriter leaves in a file it did not build, as a C string
// in the marker (simt_kit_limits), and reading them back: the file's name,
// then a line per limit.
std::string encode_limits(const std::string& file, const std::vector<Limit>& limits);
std::vector<Limit> decode_limits(const std::string& encoded, std::string* file);

// "`asm` (inline PTX)": the construct as written, and what it is.
std::string describe(const Limit& limit);

// For the student, where the lab's tests are skipped: a line per construct,
// "scan.cu:41: `asm` (inline PTX) is beyond the CPU emulator", then that this
// is the kit's limit, not a bug in their code, and what happens next.
std::string explain_for_student(const std::string& file, const std::vector<Limit>& limits);

// "`asm` (inline PTX) at scan.cu:41" (" (and 2 more)"), for a grader's note.
std::string summarize(const std::string& file, const std::vector<Limit>& limits);

}  // namespace simt
