// One run of the grader's runners (labNN-run, and scan-run through a lab's
// labNN-observe.so): a lab function on the float32 values of an input file,
// its observation (observation.hpp) sent to the grader as a frame of the
// result channel (result_channel.hpp), never written to a file.
#pragma once

#include <cstdint>
#include <string>

#include "lab.hpp"

namespace harness {

enum class EntryEnd {
    sent,             // the observation is sent, whatever it holds
    device_unusable,  // sent, and the run left the device unusable: the rest need a new process
    bad_input,        // the input file is not float32 values (why says which)
    cannot_send,      // the observation could not be sent (why says why)
};

// Runs `fn` once on `input` and sends the observation to `result_fd` as
// frame `index`.
EntryEnd run_entry(const LabFunction& fn, const std::string& input, int result_fd, std::uint64_t index, std::string& why);

}  // namespace harness
