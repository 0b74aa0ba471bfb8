#include "run/task_runner.h"

#include "run/input_sets.h"
#include "util/keyed_hash.h"
#include "run/sanitizer.h"
#include "course/random.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace hpclab {

namespace {

std::string marker_line(std::uint64_t marker) { return fmt::format("\n@@hpclab-returned-{:016x}@@\n", marker); }

// Splits the program's stdout at the marker the harness prints after each
// call returns: segment k is what call k printed before returning.
std::vector<std::string_view> split_at_markers(std::string_view text, std::uint64_t marker)
{
    const std::string m = marker_line(marker);
    std::vector<std::string_view> parts;
    std::size_t pos = 0;
    for (std::size_t hit; (hit = text.find(m, pos)) != std::string_view::npos; pos = hit + m.size())
        parts.push_back(text.substr(pos, hit - pos));
    parts.push_back(text.substr(pos));
    return parts;
}

std::string name_of(const char* field, std::size_t cap) { return std::string(field, wire::name_length(field, cap)); }

}  // namespace

std::uint64_t fresh_seed()
{
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

bool RunReport::passed() const
{
    if (status != RunStatus::completed || calls.empty()) return false;
    return std::all_of(calls.begin(), calls.end(), [](const CallReport& c) { return c.passed(); });
}

const CallReport* RunReport::first_failure() const
{
    for (const auto& c : calls)
        if (c.done && !c.passed()) return &c;
    return nullptr;
}

namespace {
double median_of(std::vector<double> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <class F> double median_timed(const std::vector<CallReport>& calls, F field)
{
    std::vector<double> t;
    for (std::size_t k = calls.size() > 1 ? 1 : 0; k < calls.size(); ++k)
        if (calls[k].done) t.push_back(field(calls[k]));
    return median_of(std::move(t));
}
}  // namespace

double RunReport::median_gpu_ms() const { return median_timed(calls, [](const CallReport& c) { return c.gpu_ms; }); }
double RunReport::median_host_ms() const { return median_timed(calls, [](const CallReport& c) { return c.host_ms; }); }

RunReport run_task(const RunRequest& req)
{
    static constexpr const char* kGateClosed = "not run: its gate was closed (no timing needed)";
    const auto t_begin = std::chrono::steady_clock::now();
    auto ms_since = [](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
    };
    RunReport report;
    report.seed = req.seed;
    if (req.gate && req.gate->closed()) {  // no timing needed after all: not worth the inputs
        report.status = RunStatus::cancelled;
        report.status_message = kGateClosed;
        return report;
    }
    report.work = req.spec->work(req.params);
    const std::vector<BufferDecl> decls = req.spec->buffers(req.params);

    std::uint64_t device_bytes = 0, host_bytes = 0;
    for (const auto& d : decls) (d.place == Place::device ? device_bytes : host_bytes) += d.bytes();
    if (req.gpu_memory_bytes && device_bytes > req.gpu_memory_bytes * 9 / 10) {
        report.status = RunStatus::too_large;
        report.status_message = fmt::format("this size needs {:.1f} GB of GPU memory; the GPU has {:.1f} GB",
                                            device_bytes / 1e9, req.gpu_memory_bytes / 1e9);
        return report;
    }

    const std::uint64_t marker = fresh_seed();
    std::uint32_t flags = wire::kFlagMarker;
    if (req.flush_l2) flags |= wire::kFlagFlushL2;
    if (req.trace == RunRequest::Trace::every_call) flags |= wire::kFlagTrace;
    if (req.trace == RunRequest::Trace::first_call) flags |= wire::kFlagTraceFirst;
    if (req.measure_copy) flags |= wire::kFlagMeasureCopy;
    if (req.outputs_only) flags |= wire::kFlagOutputsOnly;
    if (!req.judge_outputs) flags |= wire::kFlagDiscardOutputs;
    report.exchange = std::make_shared<ExchangeFile>(req.lab->id, req.task->id, req.params, decls, req.ncalls, flags,
                                                     marker, req.guard_zones ? ExchangeFile::kDefaultGuardBytes : 0,
                                                     req.input_sets);
    ExchangeFile& ex = *report.exchange;
    const std::uint32_t nsets = ex.nsets();

    // Inputs, and a keyed hash of each to find writes into them later.
    const std::uint64_t hash_key = fresh_seed();
    std::vector<std::vector<std::uint64_t>> input_hashes(nsets);
    const bool cycling = nsets < req.ncalls;
    for (std::uint32_t k = 0; k < nsets; ++k) {
        CallBuffers call = ex.call(k);
        if (cycling && k > 0) derive_input_set(ex.call(0), call, mix64(req.seed ^ 0x5E75ull ^ k));
        else if (req.fill_inputs) req.fill_inputs(call);
        else req.spec->generate(req.params, mix64(req.seed + k), call);
        for (const auto& e : call.entries())
            if (e.decl.role == Role::input && req.judge_outputs)
                input_hashes[k].push_back(keyed_hash(e.bytes, hash_key));
    }

    const double inputs_ms = ms_since(t_begin);
    const auto t_program = std::chrono::steady_clock::now();

    ProcessSpec ps;
    ps.argv = req.wrapper;
    ps.argv.insert(ps.argv.end(), {req.program.string(), "--exchange-fd", std::to_string(ex.fd())});
    ps.pass_fds = {ex.fd()};
    if (req.gate) {
        ps.argv.insert(ps.argv.end(), {"--gate", req.gate->argument()});
        ps.pass_fds.insert(ps.pass_fds.end(), {req.gate->child_go_fd(), req.gate->child_ready_fd()});
        ps.after_start = [gate = req.gate] { gate->program_started(); };
        ps.held = req.gate->held();
    }
    ps.wall_limit_s = req.wall_limit_s;
    ps.cancel = req.cancel;
    ps.cpus = req.cpus;
    report.process = run_process(ps);
    const ProcessResult& pr = report.process;
    const wire::Result& result = ex.result();
    report.device_name = name_of(result.device_name, sizeof result.device_name);
    report.trace_available = result.magic == wire::kMagic && result.trace_available == 1;
    report.copy_gbps = result.copy_gbps;
    // Under compute-sanitizer, a finished program exits with the sanitizer's
    // status when it found errors: the run itself completed.
    const bool sanitizer_exit = !req.wrapper.empty() && pr.exited() && pr.exit_code == kSanitizerErrorExit &&
                                result.stage == wire::Stage::finished;
    const std::string harness_message = name_of(result.message, sizeof result.message);
    const std::string cuda_error = name_of(result.cuda_error_name, sizeof result.cuda_error_name);

    if (pr.cancelled) {
        report.status = RunStatus::cancelled;
        report.status_message = "stopped: another run of this task hit the time limit";
    } else if (req.gate && !req.gate->opened() && !pr.timed_out && pr.signal == 0) {
        report.status = RunStatus::cancelled;
        report.status_message = kGateClosed;
    } else if (!pr.started) {
        report.status = RunStatus::could_not_start;
        report.status_message = pr.start_error;
    } else if (pr.timed_out) {
        report.status = RunStatus::timed_out;
        report.status_message =
            fmt::format("still running after {:.0f} s: stopped (an endless loop, or a kernel that never ends?)",
                        req.wall_limit_s);
    } else if (pr.signal) {
        report.status = RunStatus::crashed;
        report.status_message = "the program crashed: " + describe_signal(pr.signal);
    } else if (pr.exit_code == wire::kExitNoGpu) {
        report.status = RunStatus::no_gpu;
        report.status_message = harness_message.empty() ? "no CUDA GPU found" : harness_message;
    } else if (pr.exit_code == wire::kExitGpuFault) {
        report.status = RunStatus::gpu_fault;
        report.status_message = fmt::format("the GPU reported {} after your code ran: {}",
                                            cuda_error.empty() ? "an error" : cuda_error, harness_message);
    } else if (pr.exit_code == wire::kExitStudentCudaError) {
        report.status = RunStatus::student_cuda_error;
        report.status_message = "your code stopped at a CUDA error (cudaSafeCall/cudaCheckError, see its message)";
    } else if (pr.exit_code == wire::kExitHarnessError) {
        report.status = RunStatus::harness_error;
        report.status_message = "the grader's harness failed: " + harness_message;
    } else if (sanitizer_exit) {
        report.status = RunStatus::completed;
    } else if (pr.exit_code != 0 || result.magic != wire::kMagic || result.stage != wire::Stage::finished) {
        report.status = RunStatus::ended_early;
        report.status_message =
            pr.exit_code != 0
                ? fmt::format("the program exited with status {} before finishing", pr.exit_code)
                : "the program ended before the harness finished (is there an exit() in the lab code?)";
    } else {
        report.status = RunStatus::completed;
    }

    const double program_ms = ms_since(t_program);
    const auto t_judge = std::chrono::steady_clock::now();

    // Judge every call the program finished, even if a later one failed.
    const auto printed = split_at_markers(pr.out, marker);
    const std::uint32_t done = std::min<std::uint32_t>(result.calls_done, req.ncalls);
    // The inputs each set holds now that the program ended: every call of a
    // set shares them, so each is hashed once.
    std::vector<std::vector<std::string>> modified_in_set(nsets);
    for (std::uint32_t s = 0; s < nsets && s < done && req.judge_outputs; ++s) {
        std::size_t in_index = 0;
        const CallBuffers set = ex.call(s);
        for (const auto& e : set.entries())
            if (e.decl.role == Role::input && keyed_hash(e.bytes, hash_key) != input_hashes[s][in_index++])
                modified_in_set[s].push_back(e.decl.name);
    }
    for (std::uint32_t k = 0; k < req.ncalls; ++k) {
        CallReport c;
        const wire::CallOutcome& o = result.calls[k];
        c.done = k < done && o.done == 1;
        if (c.done) {
            c.returned = o.returned;
            c.launch_error = o.cuda_error;
            c.host_ms = o.host_ms;
            c.gpu_ms = o.gpu_ms;
            c.trace = o.trace;
            CallBuffers call = ex.call(k);
            for (std::size_t b = 0; b < call.entries().size(); ++b)
                if (o.guard_damaged & (1u << b)) c.guards_damaged.push_back(call.entries()[b].decl.name);
            c.inputs_modified = modified_in_set[k % nsets];
            if (!req.judge_outputs) {
                // Nothing came back to judge: the call counts as passed.
            } else if (c.inputs_modified.empty()) {
                const CheckInput ci {
                    .task = *req.task,
                    .params = req.params,
                    .buffers = call,
                    .returned = c.returned,
                    .launch_error = c.launch_error,
                    .printed = k < printed.size() ? printed[k] : std::string_view {},
                    .printed_late = k + 1 < printed.size() ? printed[k + 1] : std::string_view {},
                    .sample_seed = mix64(req.seed ^ 0xC0FFEEull ^ k),
                    .reference_budget = req.reference_budget,
                };
                c.check = req.spec->check(ci);
            } else {
                c.check.kind = CheckResult::Kind::mismatch;
                c.check.summary = "your code wrote into an input it must only read";
            }
        }
        if (k == 0 && c.done && req.judge_outputs) report.computed = req.spec->summarize(req.params, ex.call(0));
        report.calls.push_back(std::move(c));
    }
    // HPCLAB_PROFILE: where a run's time goes (the parent's part, then the program's).
    if (std::getenv("HPCLAB_PROFILE")) {
        const std::size_t at = pr.err.find("hpclab profile:");
        const std::string program_line = at == std::string::npos ? "" : pr.err.substr(at, pr.err.find('\n', at) - at);
        std::fprintf(stderr, "hpclab profile: %s/%s %s, %u calls, %u sets: inputs %.0f ms, program %.0f ms, judging %.0f ms\n  %s\n",
                     req.lab->id.c_str(), req.task->id.c_str(), format_params(req.params).c_str(), req.ncalls, nsets,
                     inputs_ms, program_ms, ms_since(t_judge), program_line.c_str());
    }
    return report;
}

}  // namespace hpclab
