#include "lab.hpp"

#include <stdexcept>

#include "device.hpp"

namespace harness {

std::vector<LabFunction> lab_functions() {
    const catalog::Lab* lab = catalog::find(kLab.id);
    if (!lab || lab->functions.size() != kLab.functions.size())
        throw std::logic_error(std::string("lab ") + kLab.id + " does not match the catalog");
    std::vector<LabFunction> out;
    for (std::size_t i = 0; i < kLab.functions.size(); ++i) {
        if (lab->functions[i].name != kLab.functions[i].name)
            throw std::logic_error("lab " + lab->id + ": function " + kLab.functions[i].name + " is not in the catalog");
        out.push_back({lab->functions[i].name, lab->functions[i].spec, kLab.functions[i].run});
    }
    return out;
}

void configure_device(bool from_command_line) {
    if (const catalog::Lab* lab = catalog::find(kLab.id)) device::limit_spinning(lab->spin_budget, from_command_line);
}

}  // namespace harness
