#include "finding_json.hpp"

namespace finding {

namespace {
constexpr Source kSources[] = {Source::Emulator, Source::Harness, Source::Sanitizer, Source::Withheld};
}

const char* source_name(Source source) {
    switch (source) {
        case Source::Emulator: return "emulator";
        case Source::Harness: return "harness";
        case Source::Sanitizer: return "sanitizer";
        case Source::Withheld: return "withheld";
    }
    return "";
}

void to_json(nlohmann::json& j, const Finding& f) {
    j = {{"source", source_name(f.source)}, {"kind", f.kind},         {"undefined", f.undefined},
         {"tool", f.tool},                  {"check", f.check},       {"kernel", f.kernel},
         {"function", f.function},          {"lines", f.lines},       {"columns", f.columns},
         {"launch", f.launch},
         {"block", f.block},                {"thread", f.thread},     {"allocation", f.allocation},
         {"blocks", f.blocks},              {"bytes", f.bytes},       {"allocations", f.allocations},
         {"reports", f.reports},            {"pairs", f.pairs},       {"hazards", f.hazards},
         {"message", f.message}};
}

void from_json(const nlohmann::json& j, Finding& f) {
    const std::string source = j.at("source");
    bool known = false;
    for (Source s : kSources)
        if (source == source_name(s)) {
            f.source = s;
            known = true;
        }
    if (!known) throw nlohmann::json::out_of_range::create(401, "a finding's source is unknown: " + source, &j);
    j.at("kind").get_to(f.kind);
    j.at("undefined").get_to(f.undefined);
    j.at("tool").get_to(f.tool);
    j.at("check").get_to(f.check);
    j.at("kernel").get_to(f.kernel);
    j.at("function").get_to(f.function);
    j.at("lines").get_to(f.lines);
    f.columns = j.value("columns", std::vector<unsigned>{});  // absent from results written before columns
    j.at("launch").get_to(f.launch);
    j.at("block").get_to(f.block);
    j.at("thread").get_to(f.thread);
    j.at("allocation").get_to(f.allocation);
    j.at("blocks").get_to(f.blocks);
    j.at("bytes").get_to(f.bytes);
    j.at("allocations").get_to(f.allocations);
    j.at("reports").get_to(f.reports);
    j.at("pairs").get_to(f.pairs);
    j.at("hazards").get_to(f.hazards);
    j.at("message").get_to(f.message);
}

}  // namespace finding
