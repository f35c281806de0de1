#include "bounds.hpp"

#include <cstdio>

#include "score.hpp"

namespace bench {

std::string doubt(const Alone& alone, double mine_ms, double copy_ms, double against_ms) {
    char text[512];
    if (std::string floor = score::impossible_time(mine_ms, alone.copy_ms > 0 ? alone.copy_ms : copy_ms); !floor.empty())
        return floor;
    if (alone.against_ms > 0 && mine_ms < kBelowReference * alone.against_ms) {
        std::snprintf(text, sizeof text,
                      "%.4f ms is under a quarter of the reference's time recorded alone (%.4f ms), closer to the copy's "
                      "floor than a scan can be: the time is not believed",
                      mine_ms, alone.against_ms);
        return text;
    }
    const auto slower = [&](double beside, double by_itself, const char* what) -> std::string {
        if (!(by_itself > 0) || !(beside > kSlowerBeside * by_itself)) return "";
        std::snprintf(text, sizeof text,
                      "%s took %.2fx as long beside the submission's process (%.4f ms) as alone, before it started "
                      "(%.4f ms): the GPU was not the timing's alone, so no ratio is believed",
                      what, beside / by_itself, beside, by_itself);
        return text;
    };
    if (std::string s = slower(against_ms, alone.against_ms, "the reference's build"); !s.empty()) return s;
    return slower(copy_ms, alone.copy_ms, "the device-to-device copy");
}

}  // namespace bench
