// scan-bench --worker: one side of a timing (bench/worker.hpp), in a process
// of its own: the builds named by --job (all one student's, or the
// reference's), one set of buffers, and the requests of the coordinator on
// descriptor FD, one at a time, until it closes:
//   probe            the device (probed at start): "1<TAB>L2 BYTES<TAB>NAME",
//                    or "0<TAB>0<TAB>WHY" where none is usable
//   size N           buffers for N elements (input, one output, the L2
//                    flush), or 's' where the device has too little free
//   observe J        job J's outputs on the dataset's input (an encoded
//                    observation, labs/common/observation.hpp)
//   time J SEED      job J timed once: "MS WRONG FIRST CHANGED", with
//                    --grading on the fresh input of SEED and its whole
//                    output checked (else 0 0 0)
//   copy, cub E      the baselines timed once: "MS"; E 1 exclusive
//   alone J N SEED   job J once on N elements made and left on the device
//                    (DeviceOnlyRun): their IPC handles, or 's' where the
//                    device has too little free
//   verify N SEED E SECTION HANDLES
//                    another worker's `alone` output checked: "WRONG FIRST
//                    CHANGED"
#include "serve.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "catalog.hpp"
#include "compare.hpp"
#include "device.hpp"
#include "generator.hpp"
#include "module.hpp"
#include "observation.hpp"
#include "worker.hpp"

namespace bench {
namespace {

struct Job {
    const catalog::Lab* lab;
    const catalog::Function* fn;
    const Module* build;
};

// Input, an output (n + 64 guard elements each), the flush buffer and CUB's
// scratch, with room for the other worker's: "" or why the device has less free.
std::string too_big(std::size_t n, const DeviceInfo& dev) {
    const std::size_t need = 3 * (n + harness::kGuard) * sizeof(float) + 2 * dev.l2_bytes + (64 << 20);
    if (const std::size_t free = free_bytes(); need > free)
        return "n = " + std::to_string(n) + ": skipped: needs " + std::to_string(need >> 20) + " MiB of device memory, " +
               std::to_string(free >> 20) + " MiB free";
    return "";
}

std::string number(double x) {
    char text[64];
    std::snprintf(text, sizeof text, "%.9g", x);
    return text;
}

class Server {
public:
    // The device probed, and the CUDA context made, at once: the two
    // workers of a timing start theirs side by side.
    Server(const WorkerOptions& w) : w_(w), dev_(probe()) {
        // Each build loaded once, whatever number of its functions is timed.
        for (const auto& [lab, function, path] : w.jobs) {
            const catalog::Lab* l = catalog::find(lab);
            if (!l) throw DeviceError("no lab " + lab);
            const catalog::Function* f = nullptr;
            for (const auto& fn : l->functions)
                if (fn.name == function) f = &fn;
            if (!f) throw DeviceError("no function " + function + " in lab " + l->id);
            auto it = modules_.find(path);
            if (it == modules_.end()) it = modules_.emplace(path, std::make_unique<Module>(load_module(path, l->id))).first;
            jobs_.push_back({l, f, it->second.get()});
        }
    }

    std::string handle(const std::string& request) {
        std::istringstream in(request);
        std::string verb;
        in >> verb;
        if (verb == "probe")
            return dev_.usable ? "o1\t" + std::to_string(dev_.l2_bytes) + "\t" + dev_.name : "o0\t0\t" + dev_.name;
        if (verb == "size") {
            std::size_t n = 0;
            in >> n;
            b_.reset();
            if (const std::string why = too_big(n, dev_); !why.empty()) return "s" + why;
            input_ = harness::guarded(datasets::generate({datasets::Distribution::Walk4, n, w_.seed}));
            b_.emplace(input_, n, 1, compare::poison(), dev_.l2_bytes);
            return "o";
        }
        if (verb == "verify") {
            std::size_t n = 0, section = 0;
            std::uint64_t seed = 0;
            int exclusive = 0;
            std::string in_handle, out_handle;
            in >> n >> seed >> exclusive >> section >> in_handle >> out_handle;
            const OutputCheck c = verify_device_only(in_handle + " " + out_handle, n, seed, exclusive != 0, section);
            return "o" + std::to_string(c.wrong) + " " + std::to_string(c.first) + " " + std::to_string(c.input_changed);
        }
        if (verb == "alone") {
            std::size_t j = 0, n = 0;
            std::uint64_t seed = 0;
            in >> j >> n >> seed;
            if (j >= jobs_.size()) return "eno job " + std::to_string(j);
            b_.reset();
            alone_.reset();
            if (const std::size_t need = DeviceOnlyRun::bytes_for(n), free = free_bytes(); need > free)
                return "sn = " + std::to_string(n) + " needs " + std::to_string(need >> 20) + " MiB of device memory, " +
                       std::to_string(free >> 20) + " MiB free";
            alone_.emplace(n, seed);
            const Job& job = jobs_[j];
            const std::string what = job.fn->name + " of " + job.build->path;
            job.build->function(job.fn->name).run(alone_->in(), alone_->out(), n);
            if (const int e = job.build->last_error()) throw DeviceError(what + " (launch): " + error_text(e));
            if (const int e = synchronize()) throw DeviceError(what + " (execution): " + error_text(e));
            return "o" + alone_->handles();
        }
        if (!b_) return "esize first";
        if (verb == "copy") return "o" + number(b_->copy(0));
        if (verb == "cub") {
            int exclusive = 0;
            in >> exclusive;
            return "o" + number(b_->cub(exclusive != 0, 0));
        }
        std::size_t j = 0;
        in >> j;
        if (j >= jobs_.size()) return "eno job " + std::to_string(j);
        const Job& job = jobs_[j];
        const std::string what = job.fn->name + " of " + job.build->path;
        const auto run = [&] {
            job.build->function(job.fn->name).run(b_->in(), b_->out(0), b_->n());
            if (const int e = job.build->last_error()) throw DeviceError(what + " (launch): " + error_text(e));
        };
        if (verb == "observe") {
            // In grading, after one call of its own on the dataset's input.
            if (w_.grading) {
                b_->reset(input_, compare::poison());
                b_->run(run, what);
            }
            harness::Observation seen;
            seen.n = b_->n();
            seen.out = b_->download_out(0);
            seen.in_after = b_->download_in();
            return "o" + harness::encode_observation(seen);
        }
        if (verb == "time") {
            std::uint64_t seed = 0;
            in >> seed;
            if (w_.grading) b_->fresh_input(seed);
            const double ms = b_->time(run, what);
            OutputCheck c;
            if (w_.grading) c = b_->verify(0, seed, job.fn->spec.kind == datasets::ScanKind::Exclusive, job.fn->spec.section);
            return "o" + number(ms) + " " + std::to_string(c.wrong) + " " + std::to_string(c.first) + " " +
                   std::to_string(c.input_changed);
        }
        return "eunknown request " + verb;
    }

private:
    const WorkerOptions& w_;
    DeviceInfo dev_;
    std::map<std::string, std::unique_ptr<Module>> modules_;
    std::vector<Job> jobs_;
    std::vector<float> input_;
    std::optional<Buffers> b_;
    std::optional<DeviceOnlyRun> alone_;
};

}  // namespace

void serve(const WorkerOptions& w) {
    // Not dumpable: the other worker, the student's, runs as the same user.
    prctl(PR_SET_DUMPABLE, 0);
    std::unique_ptr<Server> server;
    std::string failed;
    try {
        server = std::make_unique<Server>(w);
    } catch (const std::exception& e) {
        failed = e.what();  // every request gets the reason
    }
    for (std::string request; receive_message(w.fd, request);) {
        std::string reply;
        try {
            reply = server ? server->handle(request) : "e" + failed;
        } catch (const std::exception& e) {
            reply = std::string("e") + e.what();
        }
        if (!send_message(w.fd, reply)) break;
    }
    // No exit handler or destructor of a loaded module runs after the last reply.
    std::fflush(nullptr);
    _exit(0);
}

}  // namespace bench
