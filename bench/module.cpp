#include "module.hpp"

#include <dlfcn.h>

#include <stdexcept>

#include "catalog.hpp"

namespace bench {

const harness::Binding& Module::function(const std::string& name) const {
    for (const auto& f : binding->functions)
        if (f.name == name) return f;
    throw std::runtime_error(path + " has no function " + name);
}

Module load_module(const std::string& path, const std::string& lab_id) {
    // Never closed: the CUDA runtime keeps the module's kernels registered until exit.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw std::runtime_error("cannot load " + path + ": " + dlerror());
    using Entry = const harness::LabBinding* (*)();
    const auto entry = reinterpret_cast<Entry>(dlsym(handle, "scan_labs_binding"));
    if (!entry) throw std::runtime_error(path + " is not a lab module (no scan_labs_binding)");
    const auto last_error = reinterpret_cast<int (*)()>(dlsym(handle, "scan_labs_last_error"));
    if (!last_error) throw std::runtime_error(path + " is a lab module of an older kit (no scan_labs_last_error)");
    Module m{path, entry(), last_error};
    const catalog::Lab* built = catalog::find(m.binding->id);
    if (!built || built->id != lab_id)
        throw std::runtime_error(path + " is lab " + m.binding->id + "'s module, not lab " + lab_id + "'s");
    return m;
}

}  // namespace bench
