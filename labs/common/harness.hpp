// The doctest side of a lab suite: runs the lab's functions over the selected
// public datasets (or --input values) and turns each rule of judge() into a
// doctest check.
#pragma once

#include <string>
#include <vector>

#include "manifest.hpp"

namespace harness {

// The datasets chosen on the command line (main.cpp).
void select(std::vector<datasets::Entry> entries);

// How failures are shown. By default each distinct problem once in full, at
// its first dataset, one line per failing dataset and a summary of what to
// fix first (triage.hpp); with `print` (--details) every failed check of
// every dataset in full. A `file` (--details-file; the Meson tests name one
// in meson-logs/) gets every check of every dataset in full either way,
// after `header`.
void show_details(bool print, const std::string& file, const std::string& header);

// --results-file: the run's results, as data, go to `path` (results.hpp)
// when write_results is called; an earlier file there is removed now. `cls`:
// the class chosen (--class), "" for every class.
void results_file(const std::string& path, const std::string& cls);
// Writes the results file (nothing without one): `status` the exit status,
// `device` the device the run used, `why` the reason for a skip.
void write_results(int status, const std::string& device, const std::string& why = "");

// Instead of the manifest's datasets, run on these values (--input).
void use_values(std::vector<float> values);

// --divergence: the lab's divergence target is shown even where some
// datasets failed (by default only after a run in which all passed).
void show_divergence_target_always();

}  // namespace harness
