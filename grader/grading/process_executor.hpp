// The executor that runs real processes: each backend's workspace builds the
// labs, the runners run contained (sandbox.hpp) in the workspace's scratch
// folder, compute-sanitizer and scan-bench on the slot's GPU.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <memory>
#include <string>
#include <vector>

#include "grader/grading/context.hpp"
#include "grader/grading/executor.hpp"
#include "grader/grading/workspace.hpp"

namespace grader {

class ProcessExecutor : public Executor {
public:
    // Slot `index`'s workspaces (one per backend of ctx), its programs seeing
    // only the GPU `gpu_id` (nvidia-smi's index; "" for none).
    ProcessExecutor(const Context& ctx, unsigned index, std::string gpu_id);

    std::vector<BuildResult> build(std::size_t backend,
                                   const std::vector<std::pair<const catalog::Lab*, LabFile>>& labs) override;
    std::optional<BuildResult> nvcc_check(const catalog::Lab& lab, const LabFile& file) override;
    Run emulate(const catalog::Lab& lab, const std::string& function, const std::vector<float>& input,
                double timeout_s, Trace trace) override;
    Run reference_divergence(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec& spec,
                             const std::vector<float>& input) override;
    PlanRun gpu_plan(const std::vector<LabCall>& calls) override;
    PlanRun sanitize(const std::string& tool, const std::vector<LabCall>& calls) override;
    std::vector<TimingRun> time(const std::vector<std::pair<const catalog::Lab*, const catalog::Function*>>& fns,
                                const datasets::Spec& spec, const std::string& gpu_lock) override;
    GpuDivergence gpu_divergence(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec& spec,
                                 const std::string& gpu_lock) override;
    DeviceOnlyCheck device_only(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec& spec,
                                const std::string& gpu_lock) override;
    void prepare_reference(const std::vector<const catalog::Lab*>& labs) override;

private:
    Workspace* workspace(const std::string& backend) const;
    std::vector<std::string> env() const;  // CUDA_VISIBLE_DEVICES for its programs
    Run run_runner(const std::string& scratch, const std::string& name, const std::string& runner,
                   const std::string& function, const std::vector<float>& input, double timeout_s, bool contained,
                   std::vector<std::string> extra = {});
    std::string name(const char* prefix);  // a scratch file name no other run of this slot has
    std::string input_file(const LabCall& call) const;
    void write_plan(const Workspace& ws, const std::string& dir, const std::vector<LabCall>& calls) const;

    const Context& ctx_;
    std::string gpu_id_;
    std::vector<std::unique_ptr<Workspace>> workspaces_;  // in ctx.backends' order
    std::string inputs_;  // the GPU plans' input files, each written once a grader run (input_file)
    mutable std::mutex inputs_mutex_;
    mutable std::map<std::string, std::string> input_names_;  // a dataset's key to its file, named by a counter
    std::atomic<unsigned> runs_{0};
};

}  // namespace grader
