#include "run/task_runner.h"

#include "course/random.h"
#include "run/call_driver.h"
#include "run/commitment.h"
#include "run/claims.h"
#include "run/run_recipe.h"
#include "run/exchange_shares.h"
#include "course/input_sets.h"
#include "process/sandbox.h"
#include "run/sanitizer.h"
#include "util/background.h"
#include "util/keyed_hash.h"
#include "util/parallel.h"
#include "util/statistics.h"
#include "util/timeline.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <stop_token>
#include <thread>

namespace hpclab {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// A run on the timeline (util/timeline.h): "matmul/tiled n=33 memcheck".
std::string timeline_label(const RunRequest& req, std::string_view what)
{
    std::string tool;
    for (std::size_t i = 0; i + 1 < req.wrapper.size(); ++i)
        if (req.wrapper[i] == "--tool") tool = " " + req.wrapper[i + 1];
    return fmt::format("{} {}/{} {}{}", what, req.lab->id, req.task ? req.task->id : "", format_params(req.params), tool);
}

constexpr const char* kGateClosed = "not run: its gate was closed (no timing needed)";

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

template <class F> double median_timed(const std::vector<CallReport>& calls, F field)
{
    std::vector<double> t;
    for (std::size_t k = calls.size() > 1 ? 1 : 0; k < calls.size(); ++k)
        if (calls[k].done) t.push_back(field(calls[k]));
    return median(std::move(t));
}

// The exchange of one run, its inputs written, with what the parent keeps
// to judge the calls later: the marker and a keyed hash of each input.
struct PreparedExchange {
    std::unique_ptr<ExchangeFile> file;
    std::uint64_t marker = 0;
    std::uint64_t hash_key = 0;
    std::vector<std::vector<std::uint64_t>> input_hashes;  // per input set
};

std::uint32_t exchange_flags(const RunRequest& req)
{
    std::uint32_t flags = wire::kFlagMarker;
    if (req.flush_l2) flags |= wire::kFlagFlushL2;
    if (req.trace == RunRequest::Trace::every_call) flags |= wire::kFlagTrace;
    if (req.trace == RunRequest::Trace::first_call) flags |= wire::kFlagTraceFirst;
    if (req.measure_copy) flags |= wire::kFlagMeasureCopy;
    if (req.outputs_only) flags |= wire::kFlagOutputsOnly;
    if (!req.judge_outputs) flags |= wire::kFlagDiscardOutputs;
    if (req.parent_clock) flags |= wire::kFlagParentClock;  // reveal_inputs says how
    return flags;
}

PreparedExchange prepare_exchange(const RunRequest& req, const std::vector<BufferDecl>& decls, std::uint64_t marker)
{
    PreparedExchange p;
    p.marker = marker;
    p.hash_key = fresh_seed();
    p.file = std::make_unique<ExchangeFile>(req.lab->id, req.task->id, req.params, decls, req.ncalls,
                                            exchange_flags(req), p.marker,
                                            req.guard_zones ? ExchangeFile::kDefaultGuardBytes : 0,
                                            req.parent_clock ? 1 : req.input_sets);
    if (req.parent_clock) {  // no inputs here: the program makes each call's from its seed
        p.file->reveal_inputs(req.spec->input_fills(req.params), req.empty_calls);
        return p;
    }
    const std::uint32_t nsets = p.file->nsets();
    p.input_hashes.resize(nsets);
    const bool cycling = nsets < req.ncalls;
    for (std::uint32_t k = 0; k < nsets; ++k) {
        CallBuffers call = p.file->call(k);
        if (cycling && k > 0) derive_input_set(p.file->call(0), call, mix64(req.seed ^ 0x5E75ull ^ k));
        else if (req.fill_inputs) req.fill_inputs(call);
        else req.spec->generate(req.params, mix64(req.seed + k), call);
        for (const auto& e : call.entries())
            if (e.decl.role == Role::input && req.judge_outputs)
                p.input_hashes[k].push_back(keyed_hash(e.bytes, p.hash_key));
    }
    return p;
}

// The program's sandbox (process/sandbox.h submission_sandbox), none for a
// trusted program (the baseline's, a canary).
std::optional<SandboxSpec> run_sandbox(const RunRequest& req, const std::filesystem::path& work_dir)
{
    if (!req.sandboxed) return std::nullopt;
    return submission_sandbox({.course_root = req.lab->lab_dir.parent_path().parent_path(),
                               .program = req.program,
                               .wrapper = req.wrapper.empty() ? std::filesystem::path {} : std::filesystem::path(req.wrapper.front()),
                               .wrapper_folders = req.wrapper_folders,
                               .work_dir = work_dir,
                               .writable = req.writable,
                               .gpu_minor = req.gpu_minor,
                               .gpu_env = cuda_env(req.gpu_uuid, req.lab->device_max_connections)});
}

// On the parent's clock, the program keeps off the CPU its driver spins on
// (the last of the timing pair): with the two on one CPU, the driver's
// spin took that CPU from the program's launches, and correct files' calls
// came out up to a hundred times slower than alone.
std::vector<int> program_cpus(const RunRequest& req)
{
    if (!req.parent_clock || req.cpus.size() < 2) return req.cpus;
    return {req.cpus.begin(), req.cpus.end() - 1};
}

int driver_cpu(const RunRequest& req) { return req.parent_clock && req.cpus.size() >= 2 ? req.cpus.back() : -1; }

// The program's command, on every exchange given (one run after another).
ProcessSpec program_spec(const RunRequest& req, const std::vector<const PreparedExchange*>& exchanges,
                         const std::filesystem::path& work_dir)
{
    ProcessSpec ps;
    ps.cwd = work_dir;
    ps.sandbox = run_sandbox(req, work_dir);
    ps.file_size_limit_bytes = kSubmissionFileLimitBytes;
    ps.argv = req.wrapper;
    ps.argv.push_back(req.program.string());
    for (const PreparedExchange* ex : exchanges) {
        ps.argv.insert(ps.argv.end(), {"--exchange-fd", std::to_string(ex->file->fd())});
        ps.pass_fds.push_back(ex->file->fd());
    }
    const ExchangeFile& ex = *exchanges.front()->file;
    if (req.gate) {
        ps.argv.insert(ps.argv.end(), {"--gate", req.gate->argument()});
        if (!req.cpus_after_calls.empty())
            ps.argv.insert(ps.argv.end(), {"--cpus-after-calls", fmt::format("{}", fmt::join(req.cpus_after_calls, ","))});
        ps.pass_fds.insert(ps.pass_fds.end(), {req.gate->child_go_fd(), req.gate->child_ready_fd()});
        if (req.gate->child_open_fd() >= 0) ps.pass_fds.push_back(req.gate->child_open_fd());
        ps.after_start = [gate = req.gate] { gate->program_started(); };
        ps.held = req.gate->held();
        ps.dismissed = req.gate->dismissed();
        ps.dismissed_limit_s = kDismissedLimitSeconds;
    }
    ps.set_env = cuda_env(req.gpu_uuid, req.lab->device_max_connections);
    ps.tag_prefix = wire::tag_prefix(ex.job().marker);
    // The limit counts from the moment the GPU is ready for each exchange.
    for (std::size_t e = 0; e < exchanges.size(); ++e)
        ps.limit_restart_tags.push_back(fmt::format("{}opened-{}@@", ps.tag_prefix, e));
    ps.startup_limit_s = kStartupLimitSeconds;
    if (req.at) ps.on_first_restart = [at = req.at] { at(RunMoment::gpu_opened); };
    // The last exchange begun and its last call ended: the work is done.
    const wire::Job& last = exchanges.back()->file->job();
    ps.done_tags = {fmt::format("{}exchange-{}@@", ps.tag_prefix, exchanges.size() - 1),
                    fmt::format("{}end-{}@@", ps.tag_prefix, last.ncalls - 1)};
    ps.linger_limit_s = req.linger_limit_s;
    ps.wall_limit_s = req.wall_limit_s;
    ps.cancel = req.cancel;
    ps.cpus = program_cpus(req);
    return ps;
}

// hpc.h's words as it stops a program at a failed CUDA call (common/hpc.h,
// hpc_cuda_fail_): "<file>:<line>: cudaCheckError() failed" then "CUDA error".
bool stopped_by_hpc_h(const std::string& err)
{
    for (const char* check : {"cudaCheckError() failed\n", "cudaSafeCall() failed\n"})
        if (const auto at = err.find(check); at != std::string::npos && err.find("CUDA error", at) != std::string::npos)
            return true;
    return false;
}

// How the program ended, from the parent's view of the process first, then
// from what the harness wrote into the exchange.
void classify_end(const RunRequest& req, const wire::Result& result, RunReport& report)
{
    const ProcessResult& pr = report.process;
    const std::string harness_message = name_of(result.message, sizeof result.message);
    const std::string cuda_error = name_of(result.cuda_error_name, sizeof result.cuda_error_name);
    // Under compute-sanitizer, a finished program exits with the sanitizer's
    // status when it found errors: the run itself completed.
    const bool sanitizer_exit = !req.wrapper.empty() && pr.exited() && pr.exit_code == kSanitizerErrorExit &&
                                result.stage == wire::Stage::finished;
    auto set = [&](RunStatus s, std::string message) {
        report.status = s;
        report.status_message = std::move(message);
    };
    const bool unready_when_wanted = req.gate && req.gate->wanted() && !req.gate->opened();
    // The harness leaves its gate only on go, or when hpclab closes it.
    const bool left_unbidden = req.gate && !req.gate->opened() && !req.gate->closed() && pr.exited() &&
                               pr.exit_code == 0;
    if (pr.cancelled) set(RunStatus::cancelled, "stopped: another run of this task hit the time limit");
    // A timed program must be there to be timed: one that ended cleanly
    // before its timed calls (whether hpclab wanted them yet or not) would
    // otherwise go unmeasured (no speed finding), and one never ready
    // failed the phase.
    else if (left_unbidden || (unready_when_wanted && req.gate->ended_unready() && pr.exited() && pr.exit_code == 0))
        set(RunStatus::tampered, "the timed program ended with status 0 before its timed calls began, though hpclab "
                                 "had neither started them nor closed its gate");
    else if (unready_when_wanted && !req.gate->ended_unready() && pr.exited() && pr.exit_code == 0)
        set(RunStatus::timed_out, "the timed program was not ready for its timed calls in time: stopped");
    else if (req.gate && !req.gate->opened() && (req.gate->dismissed()->load() || (!pr.timed_out && pr.signal == 0)))
        set(RunStatus::cancelled, kGateClosed);
    else if (!pr.started) set(RunStatus::could_not_start, pr.start_error);
    // hpc.h said the student's code stopped at a CUDA error, and exit() was
    // then held up past the limit (the driver tearing down a context after a
    // fault, on a busy GPU): the error is the finding, not the wait. Printed
    // by a program that then loops, it only trades one failure for another.
    else if (pr.timed_out && !pr.lingered && stopped_by_hpc_h(pr.err))
        set(RunStatus::student_cuda_error,
            fmt::format("your code stopped at a CUDA error (cudaSafeCall/cudaCheckError, see its message); the program "
                        "was still ending {:.0f} s later",
                        req.wall_limit_s));
    else if (pr.timed_out && !pr.lingered)
        set(RunStatus::timed_out,
            fmt::format("still running after {:.0f} s: stopped (an endless loop, or a kernel that never ends?)",
                        req.wall_limit_s));
    else if (!pr.limit_message.empty()) set(RunStatus::limit_hit, pr.limit_message);
    // A limit it met says more than its lingering (a fork bomb's sleepers).
    else if (pr.lingered)
        set(RunStatus::timed_out,
            fmt::format("its calls were done, but it (or a process it started) was still running {:.0f} s later: "
                        "stopped (a child process left behind, or a program that does not end?)",
                        req.linger_limit_s));
    else if (pr.file_size_limit)
        set(RunStatus::limit_hit, fmt::format("the program wrote a file past the limit of {} MiB",
                                              kSubmissionFileLimitBytes >> 20));
    else if (pr.signal) set(RunStatus::crashed, "the program crashed: " + describe_signal(pr.signal));
    else if (pr.exit_code == wire::kExitNoGpu)
        set(RunStatus::no_gpu, harness_message.empty() ? "no CUDA GPU found" : harness_message);
    else if (pr.exit_code == wire::kExitGpuFault)
        set(RunStatus::gpu_fault, fmt::format("the GPU reported {} after your code ran: {}",
                                              cuda_error.empty() ? "an error" : cuda_error, harness_message));
    else if (pr.exit_code == wire::kExitStudentCudaError)
        set(RunStatus::student_cuda_error,
            "your code stopped at a CUDA error (cudaSafeCall/cudaCheckError, see its message)");
    else if (pr.exit_code == wire::kExitHarnessError)
        set(RunStatus::harness_error, "the grader's harness failed: " + harness_message);
    else if (sanitizer_exit) set(RunStatus::completed, "");
    else if (pr.exit_code != 0 || result.magic != wire::kMagic || result.stage != wire::Stage::finished)
        set(RunStatus::ended_early,
            pr.exit_code != 0 ? fmt::format("the program exited with status {} before finishing", pr.exit_code)
                              : "the program ended before the harness finished (is there an exit() in the lab code?)");
    else set(RunStatus::completed, "");
}

// The inputs each set holds now that the program ended, against their
// hashes from before: every call of a set shares them, so each is hashed once.
std::vector<std::vector<std::string>> modified_inputs(const RunRequest& req, const PreparedExchange& ex,
                                                      std::uint32_t done)
{
    const std::uint32_t nsets = ex.file->nsets();
    std::vector<std::vector<std::string>> modified(nsets);
    for (std::uint32_t s = 0; s < nsets && s < done && req.judge_outputs; ++s) {
        std::size_t in_index = 0;
        const CallBuffers set = ex.file->call(s);  // kept: entries() refers into it
        for (const auto& e : set.entries())
            if (e.decl.role == Role::input && keyed_hash(e.bytes, ex.hash_key) != ex.input_hashes[s][in_index++])
                modified[s].push_back(e.decl.name);
    }
    return modified;
}

// The elements of each output of a task whose reads are known
// (TaskSpec::reads_known: all its outputs have one count).
std::uint64_t output_count(const PreparedExchange& ex)
{
    for (const BufferDecl& d : ex.file->decls())
        if (d.role == Role::output) return d.count;
    return 0;
}

// The inputs of a parent-clock run's calls, made again here from each
// call's seed (the program's copy never came back): one allocation for
// every call of the run, made on first use (a fresh one a call spent more
// time on its pages than on its values: commit 1be5705 has the times).
struct RevealedInputs {
    std::optional<OwnedCallBuffers> buffers;

    CallBuffers& view(const PreparedExchange& ex)
    {
        if (!buffers) {
            std::vector<BufferDecl> inputs;
            for (const BufferDecl& d : ex.file->decls())
                if (d.role == Role::input) inputs.push_back(d);
            buffers.emplace(inputs, OwnedCallBuffers::Contents::unfilled);
        }
        return buffers->view();
    }
};

// A parent-clock call's buffers: its inputs made from the seed it was sent,
// its outputs as written. With a sample (a task whose reads are known:
// judged_sample), the inputs are made only where the sample's elements
// read them.
struct RevealedCall {
    CallBuffers view;
    std::vector<std::uint64_t> sample;  // empty: every element is judged
};

RevealedCall revealed_call(const RunRequest& req, const PreparedExchange& ex, std::uint32_t k, std::uint64_t seed,
                           std::vector<std::uint64_t> sample, RevealedInputs& made)
{
    const CallBuffers in_file = ex.file->call(k);  // its outputs alone
    CallBuffers& inputs = made.view(ex);
    // Every input of a parent-clock call is a fill (run_task), which writes
    // all of it; a sample's reference reads only what apply_fills_read writes.
    if (sample.empty()) apply_fills(req.spec->input_fills(req.params), seed, inputs);
    else apply_fills_read(*req.spec, req.params, seed, inputs, output_count(ex), sample);
    RevealedCall rc {{}, std::move(sample)};
    for (const BufferDecl& d : ex.file->decls())  // in the job's order: guard bits name them by place
        rc.view.add(d, (d.role == Role::input ? inputs : in_file).entry(d.name).bytes);
    return rc;
}

// The elements a large timed call of a task whose reads are known is judged
// on (run_recipe.h, kTimedSample): drawn now, after the program ended,
// keyed by the exchange's hash key, which never left hpclab. None (every
// element) for any other task, a small call, or a run whose outputs are
// shown whole (on_first_outputs).
std::vector<std::uint64_t> judged_sample(const RunRequest& req, const PreparedExchange& ex, std::uint64_t seed)
{
    if (!req.spec->reads_known(req.params) || req.on_first_outputs) return {};
    const std::uint64_t outputs = output_count(ex);
    if (outputs <= 4 * kTimedSample) return {};
    return sample_indices(outputs, kTimedSample, mix64(ex.hash_key ^ seed));
}

// The commitment to a call's outputs (wire/reveal.h), as the harness makes it.
std::uint64_t commitment_of(const CallBuffers& call, std::uint64_t seed)
{
    std::uint64_t total = 0;
    std::mutex m;
    const auto& entries = call.entries();
    for (std::uint32_t b = 0; b < entries.size(); ++b) {
        if (entries[b].decl.role != Role::output) continue;
        const auto* words = reinterpret_cast<const std::uint32_t*>(entries[b].bytes.data());
        parallel_for(entries[b].decl.count, [&](std::uint64_t from, std::uint64_t to) {
            const std::uint64_t part = commitment_part(words, from, to, seed, b);
            std::lock_guard lock(m);
            total += part;
        });
    }
    return total;
}

// Call k as the parent judges it: what the harness says it saw (times,
// return value, guards), what the outputs in `buffers` are against the spec.
CallReport judge_call(const RunRequest& req, const PreparedExchange& ex, std::uint32_t k, const CallBuffers& buffers,
                      const std::vector<std::string_view>& printed, std::vector<std::string> inputs_modified,
                      std::span<const std::uint64_t> sample = {})
{
    CallReport c;
    const wire::CallOutcome& o = ex.file->result().calls[k];
    c.done = o.done == 1;  // and seen to end: judge_calls asks only for those
    if (!c.done) return c;
    c.returned = o.returned;
    c.launch_error = o.cuda_error;
    c.host_ms = o.host_ms;
    c.gpu_ms = o.gpu_ms;
    c.trace = o.trace;
    const std::vector<BufferDecl>& decls = ex.file->decls();  // bit b is the job's buffer b
    for (std::size_t b = 0; b < decls.size(); ++b)
        if (o.guard_damaged & (1u << b)) c.guards_damaged.push_back(decls[b].name);
    c.inputs_modified = std::move(inputs_modified);
    if (!req.judge_outputs) return c;  // nothing came back to judge: the call counts as passed
    if (!c.inputs_modified.empty()) {
        c.check.kind = CheckResult::Kind::mismatch;
        c.check.summary = "your code wrote into an input it must only read";
        return c;
    }
    c.check = req.spec->check({
        .task = *req.task,
        .params = req.params,
        .buffers = buffers,
        .returned = c.returned,
        .launch_error = c.launch_error,
        .printed = k < printed.size() ? printed[k] : std::string_view {},
        .printed_late = k + 1 < printed.size() ? printed[k + 1] : std::string_view {},
        .sample_seed = mix64(req.seed ^ 0xC0FFEEull ^ k),
        .sample = sample,
        .reference_budget = req.reference_budget,
    });
    return c;
}

// The calls hpclab can count as done: the program says so, hpclab read each
// one's end line, and, on the parent's clock, saw its done.
std::uint32_t calls_done(const RunRequest& req, const PreparedExchange& ex, const SeenCalls& seen,
                         const DrivenCalls& driven)
{
    std::uint32_t done = std::min({ex.file->result().calls_done, req.ncalls, seen.ended});
    if (!req.parent_clock) return done;
    const auto driven_calls = static_cast<std::uint32_t>(driven.parent_ms.size());
    return std::min(done, driven_calls > req.empty_calls ? driven_calls - req.empty_calls : 0u);
}

// Call k of a parent-clock run judged on its revealed inputs; its outputs
// must be those the program committed to as it said done.
CallReport judge_revealed_call(const RunRequest& req, const PreparedExchange& ex, std::uint32_t k,
                               const std::vector<std::string_view>& printed, const DrivenCalls& driven,
                               RevealedInputs& made, RunReport& report, double& commitment_ms)
{
    const std::uint32_t j = req.empty_calls + k;
    if (!req.judge_outputs) {
        CallReport c = judge_call(req, ex, k, ex.file->call(k), printed, {});
        c.parent_ms = driven.parent_ms[j];
        return c;
    }
    const RevealedCall call = revealed_call(req, ex, k, driven.seeds[j], judged_sample(req, ex, driven.seeds[j]), made);
    CallReport c = judge_call(req, ex, k, call.view, printed, {}, call.sample);
    c.parent_ms = driven.parent_ms[j];
    const auto t_commitment = Clock::now();
    const bool committed = !c.done || commitment_of(call.view, driven.seeds[j]) == driven.commitments[j];
    commitment_ms += ms_since(t_commitment);
    if (!committed && report.status != RunStatus::tampered) {
        report.status = RunStatus::tampered;
        report.status_message = fmt::format("the outputs of call {} are not those the program had when it said the "
                                            "call was done",
                                            k + 1);
    }
    if (k == 0 && c.done) {
        report.computed = req.spec->summarize(req.params, call.view);
        if (req.on_first_outputs) req.on_first_outputs(call.view);
    }
    return c;
}

// Every call the program finished, and hpclab saw end, is judged, even if
// a later one failed.
void judge_calls(const RunRequest& req, const PreparedExchange& ex, const SeenCalls& seen, const DrivenCalls& driven,
                 RunReport& report, double& commitment_ms)
{
    const std::string printed_text = without_call_lines(report.process.out, ex.marker);
    const auto printed = split_at_markers(printed_text, ex.marker);
    const std::uint32_t done = calls_done(req, ex, seen, driven);
    const auto modified = req.parent_clock ? std::vector<std::vector<std::string>>(1) : modified_inputs(req, ex, done);
    RevealedInputs made;
    for (std::uint32_t k = 0; k < req.ncalls; ++k) {
        if (k >= done) report.calls.push_back(CallReport {});
        else if (req.parent_clock)
            report.calls.push_back(judge_revealed_call(req, ex, k, printed, driven, made, report, commitment_ms));
        else report.calls.push_back(judge_call(req, ex, k, ex.file->call(k), printed, modified[k % ex.file->nsets()]));
        if (k < seen.observed_ms.size()) report.calls.back().observed_ms = seen.observed_ms[k];
    }
    if (!req.parent_clock && !report.calls.empty() && report.calls[0].done && req.judge_outputs) {
        report.computed = req.spec->summarize(req.params, ex.file->call(0));
        if (req.on_first_outputs) req.on_first_outputs(ex.file->call(0));
    }
    // The quickest empty call: delays only add to one, and too large a cost
    // taken out would make a call look faster than it was.
    if (req.parent_clock && req.empty_calls > 0 && driven.parent_ms.size() >= req.empty_calls) {
        report.empty_calls_ms.assign(driven.parent_ms.begin(), driven.parent_ms.begin() + req.empty_calls);
        report.harness_ms = *std::min_element(report.empty_calls_ms.begin(), report.empty_calls_ms.end());
    }
}

// A size whose device buffers cannot fit the GPU: not worth starting.
std::optional<std::string> too_large(const RunRequest& req, const std::vector<BufferDecl>& decls)
{
    if (fits_gpu_memory(decls, req.gpu_memory_bytes)) return std::nullopt;
    return fmt::format("this size needs {:.1f} GB of GPU memory; the GPU has {:.1f} GB", device_bytes(decls) / 1e9,
                       req.gpu_memory_bytes / 1e9);
}

// The bytes of a call's buffers (run_recipe.h submission_limits sizes a run's memory by them).
std::uint64_t data_bytes(const std::vector<BufferDecl>& decls) { return bytes_of(decls); }

// What a call may copy back to the host (the invariant device_finishes).
std::uint64_t host_output_bytes(const std::vector<BufferDecl>& decls)
{
    return bytes_of(decls, [](const BufferDecl& d) { return d.place == Place::host && d.role == Role::output; });
}

// HPCLAB_PROFILE: where a run's time goes, the parent's part.
void print_profile(const RunRequest& req, std::uint32_t nsets, double inputs_ms, double program_ms, double judging_ms,
                   double commitment_ms)
{
    std::fprintf(stderr,
                 "hpclab profile: %s/%s %s, %u calls, %u sets: inputs %.0f ms, program %.0f ms, judging %.0f ms "
                 "(commitments %.0f ms)\n",
                 req.lab->id.c_str(), req.task->id.c_str(), format_params(req.params).c_str(), req.ncalls, nsets,
                 inputs_ms, program_ms, judging_ms, commitment_ms);
}

// HPCLAB_PROFILE: the program's own lines (harness_main.cpp, lab_program.cpp),
// once per process, and the moment hpclab saw it end on the same clock.
void print_program_profile(const RunRequest& req, const ProcessResult& process)
{
    if (!profile_asked()) return;
    std::string lines;
    for (std::size_t at = process.err.find("hpclab profile: program"); at != std::string::npos;
         at = process.err.find("hpclab profile: program", at + 1))
        lines += "  " + process.err.substr(at, process.err.find('\n', at) - at) + "\n";
    const double ended = std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
    std::fprintf(stderr, "hpclab profile: the program of %s/%s %s ended at %.0f\n%s", req.lab->id.c_str(),
                 req.task->id.c_str(), format_params(req.params).c_str(), ended, lines.c_str());
}

// The program on its exchanges, by the one path of every submission
// (run_recipe.h run_submission): in its sandbox and cgroup (memory and
// processes capped for `data_bytes` of buffers, everything killed as it
// ends). Back once every process of the run has ended, the exchanges frozen.
ProcessResult run_program(const RunRequest& req, const std::vector<const PreparedExchange*>& exchanges,
                          std::uint64_t data_bytes, CallDriver* driver = nullptr)
{
    const double noted = timeline_clock();
    const WorkDir work("run");
    ProcessSpec ps = program_spec(req, exchanges, work.path());
    timeline_note(noted, timeline_label(req, "folder of"));
    ProcessResult process = run_submission(ps, data_bytes, [&] {
        if (driver) driver->stop();  // before the file is frozen: it writes into the handshake
        req.say(RunMoment::program_ended);
    });
    print_program_profile(req, process);
    // Every process of the run has ended: what is judged from here on is
    // fixed, and nothing the program left behind can change it.
    for (const PreparedExchange* ex : exchanges) ex->file->freeze();
    return process;
}

// Where a timed program's time went once it was let go: its calls from the
// first go to the last done (and, of that, its own time between calls), then
// its end (the program's exit and its processes reaped).
void note_driven_calls(const RunRequest& req, const DrivenCalls& calls)
{
    timeline_span(calls.first_go_s, calls.last_done_s,
                  timeline_label(req, fmt::format("{} timed calls ({:.3f} s between them) of", calls.parent_ms.size(),
                                                  calls.between_calls_s)));
    timeline_note(calls.last_done_s, timeline_label(req, "the end after its timed calls of"));
}

struct PhaseTimes {
    double inputs_ms = 0, program_ms = 0;
};

// One exchange's run judged from the parent's view: how it ended, each
// call against the spec, and the program's claims against what it saw.
RunReport judge_run(const RunRequest& req, const PreparedExchange& ex, ProcessResult process, PhaseTimes times,
                    const DrivenCalls& driven = {})
{
    RunReport report;
    report.seed = req.seed;
    report.work = req.spec->work(req.params);
    report.host_output_bytes = host_output_bytes(req.spec->buffers(req.params));
    report.process = std::move(process);
    const wire::Result& result = ex.file->result();
    report.device_name = name_of(result.device_name, sizeof result.device_name);
    report.trace_available = result.magic == wire::kMagic && result.trace_available == 1;
    report.copy_bytes_per_s = result.copy_bytes_per_s;
    if (result.magic == wire::kMagic) report.before_main = result.before_main;
    classify_end(req, result, report);

    const auto t_judge = Clock::now();
    const SeenCalls seen = seen_calls(report.process.tagged, ex.marker, req.ncalls);
    report.parent_clock = req.parent_clock;
    double commitment_ms = 0;
    judge_calls(req, ex, seen, driven, report, commitment_ms);
    if (auto why = contradicted_claim(req, result, seen, report)) {
        report.status = RunStatus::tampered;
        report.status_message = *why;
    }
    if (profile_asked())
        print_profile(req, ex.file->nsets(), times.inputs_ms, times.program_ms, ms_since(t_judge), commitment_ms);
    return report;
}

}  // namespace

// The exchanges of a program's runs, one marker for all: its tagged lines,
// every exchange's, are read as one stream.
struct MadeInputs {
    std::uint64_t marker = 0;
    std::vector<PreparedExchange> exchanges;  // in the requests' order
};

std::size_t exchanges_left(const MadeInputs& made)
{
    return static_cast<std::size_t>(std::count_if(made.exchanges.begin(), made.exchanges.end(),
                                                  [](const PreparedExchange& ex) { return ex.file != nullptr; }));
}

namespace {

// Whether each exchange is its request's: its buffers, its calls and how they run.
bool made_for(const MadeInputs& made, const std::vector<RunRequest>& reqs)
{
    if (made.exchanges.size() != reqs.size()) return false;
    for (std::size_t e = 0; e < reqs.size(); ++e) {
        const ExchangeFile& ex = *made.exchanges[e].file;
        const std::vector<BufferDecl> decls = reqs[e].spec->buffers(reqs[e].params);
        if (ex.job().ncalls != reqs[e].ncalls || ex.decls().size() != decls.size()) return false;
        if (ex.job().flags != exchange_flags(reqs[e]) || (reqs[e].parent_clock && ex.job().empty_calls != reqs[e].empty_calls))
            return false;
        for (std::size_t b = 0; b < decls.size(); ++b)
            if (ex.decls()[b].name != decls[b].name || ex.decls()[b].count != decls[b].count) return false;
    }
    return true;
}

// The run's exchange: the one made ahead for it (RunRequest::inputs_ahead),
// or one made now. Taken once: a request copied and run again makes its own.
PreparedExchange exchange_for(const RunRequest& req, const std::vector<BufferDecl>& decls)
{
    if (req.inputs_ahead.valid()) {
        const std::shared_ptr<MadeInputs> made = req.inputs_ahead.get();
        if (made && made->exchanges.size() == 1 && made->exchanges.front().file && made_for(*made, {req}))
            return std::move(made->exchanges.front());
    }
    return prepare_exchange(req, decls, fresh_seed());
}

// Gate::open_when: a gated program starts now and makes its CUDA context
// once it is said (the thread returned lets it open), beside the
// correctness runs' program instead of after it has its GPU: its sandbox
// and its start go on while theirs makes its context (a streams check's
// timed turn began 0.09 s after its runs instead of 0.21 s:
// docs/results/check-times-h200.txt).
std::jthread open_when_told(const RunRequest& req)
{
    if (!req.gate || !req.gate->opens_when().valid()) return {};
    req.gate->open_later();
    return std::jthread([gate = req.gate, start = req.gate->opens_when()](std::stop_token stop) {
        // Its run over first (the program ended, or never started): nothing to open.
        while (start.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready)
            if (stop.stop_requested()) return;
        gate->let_open();
    });
}

}  // namespace

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

double RunReport::median_gpu_ms() const { return median_timed(calls, [](const CallReport& c) { return c.gpu_ms; }); }
double RunReport::median_host_ms() const { return median_timed(calls, [](const CallReport& c) { return c.host_ms; }); }

RunReport run_task(const RunRequest& request)
{
    // Inputs given whole (an image file) cannot be made from a seed: such a
    // run sends them through the exchange, and its times are the program's.
    RunRequest req = request;
    if (req.wall_limit_s <= 0) throw std::logic_error("run_task: a request without a wall limit (run/run_recipe.h makes them)");
    if (req.fill_inputs) {
        req.parent_clock = false;
        req.empty_calls = 0;
    }
    const auto t_begin = Clock::now();
    RunReport report;
    report.seed = req.seed;
    if (req.gate && req.gate->closed()) {  // no timing needed after all: not worth the inputs
        report.status = RunStatus::cancelled;
        report.status_message = kGateClosed;
        return report;
    }
    const std::vector<BufferDecl> decls = req.spec->buffers(req.params);
    if (auto why = too_large(req, decls)) {
        report.work = req.spec->work(req.params);
        report.status = RunStatus::too_large;
        report.status_message = *why;
        return report;
    }
    double noted = timeline_clock();
    PreparedExchange ex = exchange_for(req, decls);
    timeline_note(noted, timeline_label(req, "inputs of"));
    req.say(RunMoment::inputs_made);
    const std::jthread opener = open_when_told(req);
    if (req.gate && req.gate->closed()) {
        report.status = RunStatus::cancelled;
        report.status_message = kGateClosed;
        return report;
    }
    const double inputs_ms = ms_since(t_begin);
    const auto t_program = Clock::now();
    std::optional<CallDriver> driver;  // the parent's clock
    if (req.parent_clock)
        driver.emplace(ex.file->handshake(), req.empty_calls + req.ncalls, driver_cpu(req));
    ProcessResult process = run_program(req, {&ex}, data_bytes(decls), driver ? &*driver : nullptr);
    if (driver && !driver->calls().parent_ms.empty()) note_driven_calls(req, driver->calls());
    req.say(RunMoment::judging_next);
    noted = timeline_clock();
    RunReport judged = judge_run(req, ex, std::move(process), {inputs_ms, ms_since(t_program)},
                                 driver ? driver->calls() : DrivenCalls {});
    timeline_note(noted, timeline_label(req, "judging of"));
    noted = timeline_clock();
    driver.reset();   // it wrote into the file's handshake
    ex.file.reset();  // its memory given back (a timed run's: 768 MiB for streams)
    timeline_note(noted, timeline_label(req, "exchange given back of"));
    return judged;
}

std::shared_ptr<MadeInputs> make_inputs(const std::vector<RunRequest>& reqs)
{
    // The exchanges are made, and later judged, one after another: most are
    // small, and a large one's own work is shared by threads (parallel_for).
    // Side by side they gained nothing (a check took the same seconds for
    // every lab) and made a thread for each, which a class's grading, with
    // many checks at once, pays for.
    const double noted = timeline_clock();
    auto made = std::make_shared<MadeInputs>();
    made->marker = fresh_seed();
    for (const RunRequest& req : reqs)
        made->exchanges.push_back(prepare_exchange(req, req.spec->buffers(req.params), made->marker));
    if (!reqs.empty())
        timeline_note(noted, timeline_label(reqs.front(), fmt::format("inputs of {} runs from", reqs.size())));
    return made;
}


std::vector<std::optional<RunReport>> run_tasks_together(const std::vector<RunRequest>& reqs,
                                                         std::shared_ptr<MadeInputs> made)
{
    std::vector<std::optional<RunReport>> reports(reqs.size());
    if (reqs.front().wall_limit_s <= 0)
        throw std::logic_error("run_tasks_together: a request without a wall limit (run/run_recipe.h makes them)");
    if (reqs.size() < 2) {
        if (!reqs.empty()) reports[0] = run_task(reqs[0]);
        return reports;
    }
    std::uint64_t largest = 0;
    for (const RunRequest& req : reqs) {
        if (req.gate || req.on_first_outputs) throw std::logic_error("run_tasks_together: a gated or watched run");
        const std::vector<BufferDecl> decls = req.spec->buffers(req.params);
        if (too_large(req, decls)) return reports;  // each alone: run_task says why
        largest = std::max(largest, data_bytes(decls));
    }
    if (made && !made_for(*made, reqs)) throw std::logic_error("run_tasks_together: inputs made for other runs");
    if (!made) made = make_inputs(reqs);
    reqs.front().say(RunMoment::inputs_made);
    const std::uint64_t marker = made->marker;
    std::vector<const PreparedExchange*> order;
    for (const auto& ex : made->exchanges) order.push_back(&ex);
    const ProcessResult process = run_program(reqs.front(), order, largest);
    std::vector<const wire::Result*> results;
    for (const PreparedExchange* ex : order) results.push_back(&ex->file->result());
    const std::vector<std::optional<ProcessResult>> shares = shares_of_exchanges(process, marker, results);
    reqs.front().say(RunMoment::judging_next);
    const double noted = timeline_clock();
    for (std::size_t e = 0; e < reqs.size(); ++e) {
        if (!shares[e]) continue;
        reports[e] = judge_run(reqs[e], *order[e], *shares[e], {});
        for (std::size_t before = 0; before < e; ++before)
            reports[e]->ran_before.push_back(
                fmt::format("{} {}", reqs[before].task ? reqs[before].task->id : "", format_params(reqs[before].params)));
    }
    timeline_note(noted, timeline_label(reqs.front(), fmt::format("judging of {} runs from", reqs.size())));
    // Their memory given back beside what the check does next (its timed turn).
    run_in_background([made = std::move(made)]() mutable { made.reset(); });
    return reports;
}

std::uint64_t device_bytes(const std::vector<BufferDecl>& decls)
{
    return bytes_of(decls, [](const BufferDecl& d) { return d.place == Place::device; });
}

bool fits_gpu_memory(const std::vector<BufferDecl>& decls, std::uint64_t gpu_memory_bytes)
{
    return gpu_memory_bytes == 0 || device_bytes(decls) <= gpu_memory_bytes * 9 / 10;
}

}  // namespace hpclab
