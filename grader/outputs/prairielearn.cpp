// prairielearn.json: PrairieLearn's external grader results, with the
// divergence maps as images.
#include <algorithm>
#include <cstdint>
#include <utility>

#include <nlohmann/json.hpp>

#include "grader/outputs/divergence_svg.hpp"
#include "grader/outputs/outputs.hpp"
#include "grader/outputs/outputs_detail.hpp"

namespace grader {

namespace {

using nlohmann::json;

// ---- PrairieLearn's images

// PrairieLearn takes a results file of up to 1 MB (docs/externalGrading.md);
// the pictures get what the rest leaves, less a margin for the notes.
constexpr std::size_t kPrairieLearnLimit = 1000 * 1000, kNoteMargin = 4096;
constexpr std::size_t kMaxKernelImages = 8;  // per function and side, as report.html draws

struct Picture {
    std::size_t lab;  // index into the report's labs
    json image;       // {"label", "url"}
};

// Each kernel's divergence map, the student's of every lab before the
// reference's (whose maps a student can do without first).
std::vector<Picture> divergence_pictures(const Report& r) {
    std::vector<Picture> mine, reference;
    for (std::size_t i = 0; i < r.labs.size(); ++i)
        for (const DivergenceMaps& d : r.labs[i].divergence)
            for (auto [side, who] : {std::pair{&d.mine, "yours"}, std::pair{&d.reference, "the reference's"}}) {
                const auto kernels = by_kernel(*side);
                for (std::size_t k = 0; k < std::min(kernels.size(), kMaxKernelImages); ++k) {
                    const std::string cut = map_cut_note(kernels[k]);
                    const std::string label = r.labs[i].lab + " " + d.function + ": " + kernels[k].kernel + ", " + who +
                                              " (" + efficiency_label(kernels[k].total().active_fraction(),
                                                                      side == &d.mine ? d.not_scored : "") +
                                              ")" + (cut.empty() ? "" : ". " + cut);
                    (side == &d.mine ? mine : reference)
                        .push_back({i, {{"label", label}, {"url", svg_data_uri(divergence_map_svg(kernels[k], true))}}});
                }
            }
    mine.insert(mine.end(), reference.begin(), reference.end());
    return mine;
}

// PrairieLearn shows every field at once, with no "after grades are
// published" (docs/externalGrading.md): a lab's hidden datasets give their
// points and no detail, and the header says so in place of kHiddenNamedLater.
constexpr const char* kHiddenOutput = "Hidden datasets: their points count in the score; which of them failed is not shown.";

Report without_later_naming(Report r) {
    const std::size_t at = r.hidden.rfind(kHiddenNamedLater);
    if (at != std::string::npos && at + kHiddenNamedLater.size() == r.hidden.size())
        r.hidden = r.hidden.substr(0, at) + ", counted in the score without detail";
    return r;
}

// Why PrairieLearn should mark the submission "not gradable" (no points, no
// attempt used: docs/externalGrading.md, "if the input was missing"): no lab
// was submitted, or none could be graded here; empty when it is gradable.
json format_errors(const Report& r) {
    json errors = json::array();
    bool any = false;
    for (const LabResult& lab : r.labs) {
        any = any || (lab.submitted && lab.gradable());
        if (!lab.submitted || !lab.gradable()) errors.push_back(lab.lab + ": " + lab.note);
    }
    return any || r.labs.empty() ? json::array() : errors;
}

}  // namespace

std::string prairielearn_json(const Report& original) {
    const Report r = without_later_naming(original);
    json tests = json::array();
    std::vector<std::size_t> divergence_test(r.labs.size(), SIZE_MAX);  // each lab's first divergence test
    for (std::size_t i = 0; i < r.labs.size(); ++i)
        for (const TestResult& t : r.labs[i].tests) {
            if (t.component == "divergence" && divergence_test[i] == SIZE_MAX) divergence_test[i] = tests.size();
            tests.push_back({{"name", t.name},
                             {"description", t.lab + " " + t.component + (t.hidden ? " (hidden dataset)" : "")},
                             {"points", graded(t) ? t.score : 0.0},
                             {"max_points", graded(t) ? t.max_score : 0.0},
                             {"output", t.hidden ? kHiddenOutput : test_output(t)},
                             {"message", status_name(t.status)}});
        }
    const double max = r.max_score();
    json doc = {{"gradable", true},
                {"score", max > 0 ? std::clamp(r.score() / max, 0.0, 1.0) : 0.0},
                {"message", "Total " + total_text(r)},
                {"output", terminal_table(r, false)},
                {"tests", tests}};
    if (const json errors = format_errors(r); !errors.empty()) doc["gradable"] = false, doc["format_errors"] = errors;
    // The maps go with each lab's divergence test (the result's own images
    // where a lab has none), the colour scale with the result; those that
    // would take the file past the limit are left out, and the file says so.
    std::vector<Picture> pictures = divergence_pictures(r);
    if (pictures.empty()) return dump(doc);
    pictures.insert(pictures.begin(), {SIZE_MAX, {{"label", "colour scale: active lanes per warp"}, {"url", svg_data_uri(legend_svg(true))}}});
    std::size_t size = dump(doc).size() + kNoteMargin;
    std::vector<std::string> left_out;
    for (const Picture& p : pictures) {
        const std::size_t bytes = p.image.dump().size() + 64;  // the entry, its indentation and the images key
        const bool fits = size + bytes <= kPrairieLearnLimit;
        json& holder = p.lab != SIZE_MAX && divergence_test[p.lab] != SIZE_MAX ? doc["tests"][divergence_test[p.lab]] : doc;
        if (fits) holder["images"].push_back(p.image), size += bytes;
        else left_out.push_back(p.image["label"]);
    }
    if (!left_out.empty()) {
        std::string note = "\n" + std::to_string(left_out.size()) + " divergence map(s) left out to keep this file within "
                           "PrairieLearn's 1 MB; report.html has them all:";
        for (const std::string& label : left_out) note += "\n  " + label;
        doc["output"] = doc["output"].get<std::string>() + truncate_lines(note, 20);
    }
    return dump(doc);
}

}  // namespace grader
