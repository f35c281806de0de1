#include "catalog.hpp"

namespace catalog {

const std::vector<Lab>& labs() {
    using datasets::ScanKind;
    // Sections as in the labs' scan.hpp: Kogge-Stone 1024 elements, Brent-Kung 2048;
    // lab 05's tiles 32768 (a block's share, for naming the block of a wrong element).
    static const std::vector<Lab> all = {
        {"01-kogge-stone", "lab01", {{"kogge_stone_scan", {ScanKind::Inclusive, 1024, 1024}}}},
        {"02-brent-kung", "lab02", {{"brent_kung_scan", {ScanKind::Inclusive, 2048, 2048}}}},
        {"03-exclusive",
         "lab03",
         {{"kogge_stone_exclusive_scan", {ScanKind::Exclusive, 1024, 1024}},
          {"brent_kung_exclusive_scan", {ScanKind::Exclusive, 2048, 2048}}}},
        {"04-hierarchical", "lab04", {{"hierarchical_scan", {ScanKind::Inclusive, 0, 2048}}}},
        {"05-decoupled-lookback", "lab05", {{"single_pass_scan", {ScanKind::Inclusive, 0, 32768}}}},
    };
    return all;
}

const Lab* find(const std::string& name) {
    for (const auto& lab : labs()) {
        const std::string number = lab.id.substr(0, 2);
        if (name == lab.id || name == lab.suite || name == number || (number[0] == '0' && name == number.substr(1)))
            return &lab;
    }
    return nullptr;
}

}  // namespace catalog
