#include "run_entry.hpp"

#include <fstream>
#include <stdexcept>
#include <vector>

#include "observe.hpp"
#include "result_channel.hpp"

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

}  // namespace

EntryEnd run_entry(const LabFunction& fn, const std::string& input, int result_fd, std::uint64_t index, std::string& why) {
    std::vector<float> values;
    try {
        values = read_input(input);
    } catch (const std::exception& e) {
        why = e.what();
        return EntryEnd::bad_input;
    }
    const Observation seen = observe(fn, values);
    try {
        channel::send(result_fd, channel::Kind::observation, index, encode_observation(seen));
    } catch (const std::exception& e) {
        why = e.what();
        return EntryEnd::cannot_send;
    }
    return seen.sticky ? EntryEnd::device_unusable : EntryEnd::sent;
}

}  // namespace harness
