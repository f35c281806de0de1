// One run of the grader's runners (labNN-run, and scan-run through a lab's
// labNN-observe.so): a lab function on the float32 values of an input file,
// its observation (observation.hpp) written to an output file.
#pragma once

#include <string>

#include "lab.hpp"

namespace harness {

enum class EntryEnd {
    written,          // the observation is written, whatever it holds
    device_unusable,  // written, and the run left the device unusable: the rest need a new process
    bad_input,        // the input file is not float32 values (why says which)
    cannot_write,     // the observation could not be written (why says where)
};

// --reversed-too (the emulator's): after a run whose launches had more than
// one block, the function runs again with the blocks in reverse order, that
// observation written to OUTPUT.reversed first, so the main file's presence
// tells the grader both are there. Every file is written whole, then
// renamed: a file the grader finds is complete.
EntryEnd run_entry(const LabFunction& fn, const std::string& input, const std::string& output, bool reversed_too,
                   const std::string& block_order, std::string& why);

}  // namespace harness
