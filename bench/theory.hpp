// The additions each lab's algorithm performs, as the textbook counts them
// (Hwu, Kirk & El Hajj, PMPP, sec. 9.3-9.5 and exercises 9.2, 9.3, 9.6), to
// set against the FADD instructions the hardware counted.
#pragma once

#include <cstddef>
#include <string>

namespace bench {

struct Theory {
    double additions = 0;  // for the whole input of n elements
    double per_section = 0;
    std::size_t section = 0;  // elements per section; 0 for the whole-array scan
    std::string rule;         // the count in words
    std::string exercise;     // which textbook exercise it answers
    double bound = 0;         // an upper bound the textbook proves, where it gives one (else 0)
};

// Throws std::invalid_argument for a function that is not in the catalog.
Theory additions(const std::string& function, std::size_t n);

}  // namespace bench
