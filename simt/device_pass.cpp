// The device pass's kernels, by launch site (simt/launch.hpp): a file that
// uses __CUDA_ARCH__ is compiled as a host pass and a device pass, and each
// launch of the host pass runs the kernel its device pass registered here.
#include <map>
#include <string>

#include "simt/cuda.hpp"

namespace simt {
namespace {

// Filled while the program starts (static initialisation of the device
// pass's registrations), read by launches after.
std::map<std::string, DeviceCall>& sites() {
    static std::map<std::string, DeviceCall> all;
    return all;
}

}  // namespace

void register_device_site(const std::string& key, DeviceCall call) { sites()[key] = call; }

DeviceCall find_device_site(const std::string& key) {
    const auto it = sites().find(key);
    return it == sites().end() ? nullptr : it->second;
}

// The compiler numbers a generic lambda's invented parameters across the
// translation unit (auto:1 in the host pass, auto:2 at the same site of the
// device pass): those numbers go too.
std::string device_site_key(const char* pretty) {
    static const std::string pass = "__simt_device::", invented = "auto:";
    std::string key = pretty;
    for (std::size_t at; (at = key.find(pass)) != std::string::npos;) key.erase(at, pass.size());
    for (std::size_t at = key.find(invented); at != std::string::npos; at = key.find(invented, at + 4)) {
        std::size_t end = at + invented.size();
        while (end < key.size() && key[end] >= '0' && key[end] <= '9') ++end;
        key.erase(at + 4, end - at - 4);
    }
    return key;
}

}  // namespace simt
