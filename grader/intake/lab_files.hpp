// Which file of an unpacked submission is each lab's scan.cu: the accepted
// layouts first, else (the rubric's intake allowing it) a .cu file found by
// the lab function it defines; the headers of the student's own it
// includes; and its encoding (a UTF-8 byte-order mark is removed, UTF-16 is
// refused with a message).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "grader/core/rubric.hpp"

namespace grader {

struct LabFile {
    std::string path;  // the file graded as the lab's scan.cu, under the unpack folder
    std::string from;  // as the submission names it: "labs/02-brent-kung/Scan.cu"
    // The student's headers it includes from its folder, as they are named
    // there ("helpers.cuh", "util/warp.cuh"): copied beside it to build.
    std::vector<std::string> headers;
    std::vector<std::string> notes;  // how it was taken, for the feedback; none for a layout
    std::string flag;                // for the instructor, in the gradebook: a file taken by its function, or one passed over
    std::string refused;             // why it is not built (UTF-16, a header the rubric does not take); "" to build
};

struct LabFiles {
    std::map<std::string, LabFile> found;        // lab id -> its file
    std::map<std::string, std::string> missing;  // lab id -> why none was taken, where a file looked like it
    std::vector<std::string> taken;              // the files graded (lab files and headers), relative to the root
};

// The labs' files under `root` (an unpacked submission's top folder; the
// messages name a file by its path from `shown_from`, the folder the student
// uploaded). `kit`: the kit's tree, whose lab folders hold the files a header
// name may not take (scan.hpp).
LabFiles find_lab_files(const std::filesystem::path& root, const std::filesystem::path& shown_from,
                        const IntakeRules& rules, const std::string& kit);

// Whether `source` defines the function `name` (a definition, not a
// declaration or a call), in program text.
bool defines_function(const std::string& source, const std::string& name);

// The source rules a lab file must meet before it is compiled: no #include
// outside the lab's folder and system headers, no embedded file, no reaching
// into the emulator, the runner or the linker's wrappers. They read program
// text (simt/source_text.hpp: comments and literals blanked, line splices
// joined, an #include's header-name kept), and string literals only for what
// an assembler or linker reads there (asm, asm labels: .incbin, symbol
// names). Returns the first broken rule, "scan.cu:LINE: what", or "", of
// scan.cu and then of each header taken with it.
std::string source_policy(const LabFile& file);

// A lab file's text with its headers' (their names and contents): what its
// grade depends on, for the result cache and the batch's records.
std::string graded_text(const LabFile& file);

}  // namespace grader
