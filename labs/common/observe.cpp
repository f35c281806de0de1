#include "observe.hpp"

#include "compare.hpp"
#include "device.hpp"

namespace harness {
namespace {

struct Buffers {
    float* in = nullptr;
    float* out = nullptr;
    ~Buffers() {
        try {
            device::release(in);
            device::release(out);
        } catch (const device::Error&) {
            // The context is already broken; the error was recorded where it happened.
        }
    }
};

}  // namespace

Observation observe(const LabFunction& fn, const std::vector<float>& input) {
    const std::vector<float> in = guarded(input);
    Observation seen;
    seen.n = input.size();
    seen.out.assign(in.size(), compare::poison());
    seen.in_after.assign(in.size(), 0.0f);
    try {
        Buffers buf;
        buf.in = device::alloc(in.size());
        buf.out = device::alloc(in.size());
        device::upload(buf.in, in.data(), in.size());
        device::upload(buf.out, seen.out.data(), in.size());
        device::given(buf.in, seen.n);
        device::given(buf.out, seen.n);
        const device::Usage before = device::in_use();
        device::take_findings();  // only what this call causes counts
        const device::Work work_before = device::work_so_far();
        device::count_host_traffic();  // after the harness's own uploads
        fn.run(buf.in, buf.out, seen.n);
        device::check_after(fn.name.c_str());
        if (const device::Work work = device::work_so_far(); work.launches >= 0) {
            seen.launches = work.launches - work_before.launches;
            seen.blocks = work.blocks - work_before.blocks;
        }
        seen.output_from_kernel = device::written_by_kernel(buf.out);
        const device::HostTraffic traffic = device::host_traffic(buf.out);
        seen.to_host_bytes = traffic.to_host;
        seen.host_bytes_in_output = traffic.in_output;
        seen.block_order = device::block_order();
        const device::Usage after = device::in_use();
        if (after.bytes > before.bytes) {
            seen.leaked_bytes = after.bytes - before.bytes;
            seen.leaked_allocations = after.allocations - before.allocations;
        }
        seen.divergence = device::take_divergence();
        device::download(seen.in_after.data(), buf.in, in.size());
        device::download(seen.out.data(), buf.out, in.size());
    } catch (const device::Error& e) {
        seen.error = e.what();
        seen.sticky = e.sticky();
    }
    // Also after an error: a kernel may have run through the pointer a failed
    // call left unset (an uninitialised one), and its findings say where.
    for (const auto& f : device::take_findings()) seen.findings.push_back(f);
    return seen;
}

}  // namespace harness
