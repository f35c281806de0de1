#include "run_entry.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "device.hpp"
#include "observe.hpp"

namespace harness {
namespace {

std::vector<float> read_input(const std::string& path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);  // read whole, in one call (40 MB for 10^7 elements)
    const std::streamoff size = file.is_open() ? static_cast<std::streamoff>(file.tellg()) : -1;
    if (size < 0 || size % static_cast<std::streamoff>(sizeof(float)) != 0)
        throw std::runtime_error("cannot read " + path + " as float32 values");
    std::vector<float> values(static_cast<std::size_t>(size) / sizeof(float));
    file.seekg(0);
    if (!file.read(reinterpret_cast<char*>(values.data()), size)) throw std::runtime_error("cannot read " + path + " as float32 values");
    return values;
}

void write(const std::string& path, const Observation& seen) {
    const std::string partial = path + ".partial";
    write_observation(partial, seen);
    if (std::rename(partial.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + partial);
}

}  // namespace

EntryEnd run_entry(const LabFunction& fn, const std::string& input, const std::string& output, bool reversed_too,
                   const std::string& block_order, std::string& why) {
    std::vector<float> values;
    try {
        values = read_input(input);
    } catch (const std::exception& e) {
        why = e.what();
        return EntryEnd::bad_input;
    }
    const Observation seen = observe(fn, values);
    try {
        if (reversed_too && !seen.sticky && seen.blocks > seen.launches) {
            device::set_block_order("reverse");
            write(output + ".reversed", observe(fn, values));
            device::set_block_order(block_order.empty() ? "default" : block_order);
        }
        write(output, seen);
    } catch (const std::exception& e) {
        why = e.what();
        return EntryEnd::cannot_write;
    }
    return seen.sticky ? EntryEnd::device_unusable : EntryEnd::written;
}

}  // namespace harness
