#include "grader/core/report.hpp"

namespace grader {

namespace {

// A component that is not gradable here counts in neither the score nor the
// maximum (see report.hpp).
double sum_gradable(const std::vector<Component>& components, double Component::*field) {
    double sum = 0;
    for (const Component& c : components)
        if (c.gradable) sum += c.*field;
    return sum;
}

double sum_labs(const std::vector<LabResult>& labs, double (LabResult::*field)() const) {
    double sum = 0;
    for (const LabResult& lab : labs) sum += (lab.*field)();
    return sum;
}

}  // namespace

bool LabResult::gradable() const {
    for (const Component& c : components)
        if (c.gradable) return true;
    return false;
}

double LabResult::score() const { return sum_gradable(components, &Component::score); }
double LabResult::max_score() const { return sum_gradable(components, &Component::max_score); }
double Report::score() const { return sum_labs(labs, &LabResult::score); }
double Report::max_score() const { return sum_labs(labs, &LabResult::max_score); }

}  // namespace grader
