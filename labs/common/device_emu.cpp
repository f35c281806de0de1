// Emulator backend of device.hpp (with device_runtime.cpp, whose CUDA calls
// the emulator serves): always available, and its checks' findings reach the
// suite as failures.
#include <simt/runtime.hpp>

#include <cstdlib>

#include "device.hpp"
#include "limits.hpp"
#include "score.hpp"

// Where the lab's scan.cu uses what the emulator cannot run, the rewriter
// built it into this record of those constructs instead of code
// (simt/limits.hpp); otherwise it is not defined.
extern "C" __attribute__((weak)) const char simt_kit_limits[];

namespace device {

Availability probe() {
    if (simt_kit_limits != nullptr) {
        std::string file;
        const std::vector<simt::Limit> limits = simt::decode_limits(simt_kit_limits, &file);
        return {false, simt::explain_for_student(file, limits)};
    }
    return {true, "the CPU emulator (scan_backend=emu)"};
}

const char* backend() { return "emu"; }

std::vector<finding::Finding> take_findings() {
    std::vector<finding::Finding> out;
    for (auto& f : simt::take_findings()) {
        finding::Finding& r = out.emplace_back();
        r.source = finding::Source::Emulator;
        r.kind = score::emulator_category(simt::kind_name(f.kind));
        r.undefined = score::emulator_undefined(simt::kind_name(f.kind));
        r.check = std::move(f.check);
        r.kernel = std::move(f.kernel);
        r.lines = std::move(f.lines);
        r.columns = std::move(f.columns);
        r.launch = std::move(f.launch);
        r.block = "(" + std::to_string(f.block[0]) + "," + std::to_string(f.block[1]) + "," + std::to_string(f.block[2]) + ")";
        if (f.thread >= 0) r.thread = std::to_string(f.thread);
        r.allocation = std::move(f.allocation);
        r.blocks = f.blocks;
        r.message = std::move(f.message);
    }
    return out;
}

bool trace_divergence(bool on) {
    simt::set_divergence_tracing(on);
    return true;
}

std::vector<LaunchDivergence> take_divergence() {
    std::vector<LaunchDivergence> out;
    for (const auto& d : simt::take_divergence()) {
        LaunchDivergence& l = out.emplace_back();
        l.kernel = d.kernel;
        l.blocks = d.blocks;
        l.warps_per_block = d.warps_per_block;
        for (const auto& interval : d.cells) {
            auto& row = l.cells.emplace_back();
            for (const auto& cell : interval) row.push_back({cell.lane_visits, cell.warp_visits, cell.divergent_blocks});
        }
        simt::DivergenceReport parts = simt::report_parts(d);
        l.report = {std::move(parts.head), std::move(parts.intervals), std::move(parts.lanes)};
    }
    return out;
}

bool trace_shared(const std::string& array, unsigned block, std::size_t elements) {
    simt::set_trace(array, block, elements);
    return true;
}

std::string take_shared_trace() { return simt::take_trace(); }
std::string take_refused_launch() { return simt::take_refused_launch(); }
std::string shared_trace_unmatched() { return simt::trace_unmatched(); }

Work work_so_far() {
    const simt::LaunchCount c = simt::launches_so_far();
    return {static_cast<long long>(c.launches), static_cast<long long>(c.blocks)};
}

int written_by_kernel(const float* p) { return simt::written_by_kernel(p) ? 1 : 0; }
void count_host_traffic() { simt::count_host_traffic(); }
HostTraffic host_traffic(const float* out) {
    return {static_cast<long long>(simt::bytes_to_host()), static_cast<long long>(simt::host_data_in(out))};
}
void given(const float* p, std::size_t count) { simt::set_given_bytes(p, count * sizeof(float)); }

std::string block_order() { return simt::block_order(); }
bool set_block_order(const std::string& spec) { return simt::set_block_order(spec); }

void limit_spinning(unsigned long long basic_blocks, bool over_environment) {
    if (over_environment || std::getenv("SIMT_SPIN_BUDGET") == nullptr) simt::set_spin_budget(basic_blocks);
}

Usage in_use() {
    const simt::MemoryUsage m = simt::memory_in_use();
    return {m.bytes, m.allocations};
}

bool reset() { return false; }  // the grader's sanitizer plans, its one caller, are the GPU's

}  // namespace device
