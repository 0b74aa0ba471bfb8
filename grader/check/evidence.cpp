#include "check/evidence.h"

#include "check/decide.h"
#include "check/lesson_facts.h"
#include "check/release_evidence.h"

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>

namespace hpclab {

namespace {

Finding make(Verdict kind, std::string message, std::string where)
{
    return Finding {kind, std::move(message), "", std::move(where)};
}

// "n" -> params["n"], "32" -> 32, "*" -> nothing.
std::optional<std::int64_t> shape_value(const std::string& e, const Params& p)
{
    if (e == "*") return std::nullopt;
    if (const auto it = p.find(e); it != p.end()) return it->second;
    return std::stoll(e);
}

bool shape_matches(const std::vector<std::string>& want, const std::int32_t got[3], const Params& p)
{
    if (want.empty()) return true;
    for (int i = 0; i < 3; ++i)
        if (const auto v = shape_value(want[static_cast<std::size_t>(i)], p); v && *v != got[i]) return false;
    return true;
}

std::string shape_text(const std::vector<std::string>& want, const Params& p)
{
    std::string out = "(";
    for (std::size_t i = 0; i < 3; ++i) {
        const auto v = shape_value(want[i], p);
        out += (i ? "," : "") + (v ? std::to_string(*v) : std::string("any"));
    }
    return out + ")";
}

// The finding of a run that did not complete; nothing when it did.
std::optional<Finding> finding_of_status(const RunReport& r, const std::string& where)
{
    switch (r.status) {
    case RunStatus::completed:
    case RunStatus::cancelled: return std::nullopt;
    case RunStatus::no_gpu: return make(Verdict::not_run, r.status_message, where);
    case RunStatus::timed_out: return make(Verdict::time_limit, r.status_message, where);
    case RunStatus::crashed:
    case RunStatus::ended_early: return make(Verdict::crash, r.status_message, where);
    case RunStatus::student_cuda_error: {
        // hpc.h printed which call failed, and where: show its first line.
        const std::string& err = r.process.err;
        const std::string first = err.substr(0, err.find('\n'));
        const auto detail = err.find("CUDA error");
        return make(Verdict::cuda_error,
                    first + (detail != std::string::npos ? ": " + err.substr(detail, err.find('\n', detail) - detail)
                                                         : std::string()),
                    where);
    }
    case RunStatus::gpu_fault: return make(Verdict::gpu_fault, r.status_message, where);
    case RunStatus::tampered: return make(Verdict::tampering, r.status_message, where);
    case RunStatus::limit_hit: return make(Verdict::resource_limit, r.status_message, where);
    case RunStatus::too_large:
    case RunStatus::could_not_start:
    case RunStatus::harness_error: return make(Verdict::grader_error, r.status_message, where);
    }
    return std::nullopt;
}

// A status after which the calls say nothing: the run never ran them.
bool calls_unknown(RunStatus s)
{
    return s == RunStatus::no_gpu || s == RunStatus::cancelled || s == RunStatus::too_large ||
           s == RunStatus::could_not_start || s == RunStatus::harness_error;
}

void findings_of_call(const CallReport& c, const std::string& at, std::vector<Finding>& out)
{
    if (!c.inputs_modified.empty())
        out.push_back(make(Verdict::input_modified,
                           fmt::format("your code wrote into input {}, which it must only read", c.inputs_modified.front()),
                           at));
    if (!c.guards_damaged.empty())
        out.push_back(make(Verdict::out_of_bounds,
                           fmt::format("your code wrote past the end (or before the start) of {}", c.guards_damaged.front()),
                           at));
    if (!c.check.ok() && c.inputs_modified.empty()) {
        const Verdict v = c.check.kind == CheckResult::Kind::unwritten ? Verdict::no_output : Verdict::wrong_answer;
        std::string msg = c.check.summary;
        if (c.launch_error) msg += fmt::format(" (a kernel launch failed: CUDA error {})", c.launch_error);
        out.push_back(make(v, msg, at));
    }
}

// A wrong or missing output of a size that ran after others in the same
// program may come from what the code kept of an earlier call (a static
// buffer sized by the first call, a result remembered): say so.
void note_sizes_before(const RunReport& r, std::vector<Finding>& findings)
{
    if (r.ran_before.empty()) return;
    std::string sizes;
    for (const std::string& run : r.ran_before) sizes += (sizes.empty() ? "" : ", ") + run;
    for (Finding& f : findings)
        if (f.kind == Verdict::wrong_answer || f.kind == Verdict::no_output)
            f.message += fmt::format("\n(this size ran after {} (task and size) in the same program: a buffer or a result your code "
                                     "keeps from one call to the next would show here)",
                                     sizes);
}

// A shared_memory task whose kernels use some shared memory, but none
// enough for the lesson's cache of its block (a token __shared__ int
// beside a kernel that reads global memory, a tile too small): what to say.
std::optional<std::string> finding_of_cache_size(const TaskInfo& task, const wire::CallTrace& t, std::uint32_t recorded)
{
    const LaunchExpectation& e = task.expect;
    if (task.technique != "shared_memory" || e.shared_per_thread == 0 || !t.any_shared || recorded == 0)
        return std::nullopt;
    auto needed = [&](const wire::KernelRecord& k) {
        const std::int64_t threads = std::int64_t {k.block[0]} * k.block[1] * k.block[2];
        return threads * e.shared_per_thread + e.shared_extra;
    };
    std::uint32_t closest = 0;
    for (std::uint32_t i = 0; i < recorded; ++i) {
        const wire::KernelRecord& k = t.kernel[i];
        if (k.static_shared + k.dynamic_shared >= needed(k)) return std::nullopt;
        const wire::KernelRecord& c = t.kernel[closest];
        if (k.static_shared + k.dynamic_shared > c.static_shared + c.dynamic_shared) closest = i;
    }
    const wire::KernelRecord& k = t.kernel[closest];
    return fmt::format("your kernel's shared memory cannot hold what the lesson caches in it: a block of {} threads needs "
                       "at least {} B ({} B per thread{}), and {} has {} B. Is the __shared__ array the one the kernel "
                       "reads its inputs from?",
                       k.block[0] * k.block[1] * k.block[2], needed(k), e.shared_per_thread,
                       e.shared_extra ? fmt::format(" and {} B of halo", e.shared_extra) : std::string(),
                       demangle(std::string(k.name, wire::name_length(k.name, sizeof k.name))),
                       k.static_shared + k.dynamic_shared);
}

// The lesson facts a call's trace shows or not (check/lesson_facts.h).
FactScene call_scene(const TaskInfo& task, const Params& params, const wire::CallTrace& t)
{
    return FactScene {.expect = task.expect, .params = params, .trace = &t,
                      .named = t.kernels > 0 ? describe_launch(t.kernel[0]) : "no kernel"};
}

}  // namespace

std::string demangle(const std::string& name)
{
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    std::string s = status == 0 && d ? d.get() : name;
    const auto paren = s.find('(');
    return paren == std::string::npos ? s : s.substr(0, paren);
}

std::string describe_launch(const wire::KernelRecord& k)
{
    const int shared = k.static_shared + k.dynamic_shared;
    return fmt::format("{}<<<({},{},{}), ({},{},{})>>> {:.3f} ms, {}",
                       demangle(std::string(k.name, wire::name_length(k.name, sizeof k.name))), k.grid[0], k.grid[1],
                       k.grid[2], k.block[0], k.block[1], k.block[2], k.duration_ns / 1e6,
                       shared > 0 ? fmt::format("{} B of shared memory", shared) : std::string("no shared memory"));
}

std::vector<Finding> findings_of_trace(const TaskInfo& task, const Params& params, const wire::CallTrace& t)
{
    std::vector<Finding> out;
    const std::string where = format_params(params);
    if (!t.traced) return out;
    if (task.judged_by(Invariant::releases))
        if (auto why = unreleased(t.resources)) out.push_back(make(Verdict::not_released, *why, where));
    const LaunchExpectation& e = task.expect;
    const auto add_missing_facts = [&] {
        for (MissingFact& m : missing_facts(ObservedIn::call_trace, call_scene(task, params, t)))
            out.push_back(make(m.verdict, std::move(m.why), where));
    };
    if (t.kernels == 0) {
        if (task.judged_by(Invariant::on_gpu))
            out.push_back(make(Verdict::not_on_gpu,
                               "no kernel ran during the call: the result was computed without the GPU", where));
        else
            add_missing_facts();  // a refusal: what it asks of a call without a launch
        return out;
    }
    const std::uint32_t recorded = std::min<std::uint32_t>(t.kernels, wire::kMaxKernelRecords);
    auto any = [&](auto pred) {
        for (std::uint32_t i = 0; i < recorded; ++i)
            if (pred(t.kernel[i])) return true;
        return false;
    };
    if ((!e.grid.empty() || !e.block.empty()) && !any([&](const wire::KernelRecord& k) {
            return shape_matches(e.grid, k.grid, params) && shape_matches(e.block, k.block, params);
        }))
        out.push_back(make(Verdict::wrong_launch,
                           fmt::format("the lesson asks for a grid of {} blocks of {} threads; your code launched {}",
                                       e.grid.empty() ? "any" : shape_text(e.grid, params),
                                       e.block.empty() ? "any" : shape_text(e.block, params),
                                       describe_launch(t.kernel[0])),
                           where));
    if (task.technique == "shared_memory" && !t.any_shared)
        out.push_back(make(Verdict::no_shared_memory,
                           fmt::format("this task asks for shared memory, and no kernel of the call used any "
                                       "(it launched {})",
                                       describe_launch(t.kernel[0])),
                           where));
    if (auto f = finding_of_cache_size(task, t, recorded)) out.push_back(make(Verdict::no_shared_memory, *f, where));
    add_missing_facts();
    return out;
}

std::optional<Finding> finding_of_copies_back(const TaskInfo& task, std::uint64_t host_output_bytes,
                                              const wire::CallTrace& t, const std::string& where)
{
    if (!t.traced || !task.judged_by(Invariant::device_finishes)) return std::nullopt;
    if (t.d2h_bytes <= host_output_bytes + kCopyBackSpareBytes) return std::nullopt;
    return make(Verdict::not_on_gpu,
                fmt::format("the call copied {} bytes from the device back to the host, where its outputs on the "
                            "host are {} bytes: the device computes the whole result, and the host receives only "
                            "it (partial sums added up on the host, or inputs read back to compute there, are work "
                            "the lesson gives the GPU)",
                            t.d2h_bytes, host_output_bytes),
                where);
}

std::vector<Finding> findings_of_run(const TaskInfo& task, const SizeCase& size, const RunReport& r)
{
    std::vector<Finding> out;
    const std::string where = format_params(size.params);
    if (auto f = finding_of_status(r, where)) out.push_back(std::move(*f));
    if (calls_unknown(r.status)) return out;
    if (r.process.out_truncated)
        out.push_back(make(Verdict::output_limit, "the program printed more than 1 MiB; the rest was cut", where));
    if (task.judged_by(Invariant::releases))
        if (auto why = held_from_start(r.before_main)) out.push_back(make(Verdict::not_released, *why, where));
    for (std::size_t k = 0; k < r.calls.size(); ++k) {
        const CallReport& c = r.calls[k];
        if (!c.done) continue;
        findings_of_call(c, r.calls.size() > 1 ? fmt::format("{}, call {}", where, k + 1) : where, out);
        if (k != 0) continue;
        for (auto& f : findings_of_trace(task, size.params, c.trace)) out.push_back(std::move(f));
        if (auto f = finding_of_copies_back(task, r.host_output_bytes, c.trace, where)) out.push_back(std::move(*f));
    }
    note_sizes_before(r, out);
    return out;
}

bool bent_by_load(const TaskInfo& task, const Params& params, const RunReport& r)
{
    if (r.calls.empty() || !r.calls[0].done || !r.calls[0].trace.traced) return false;
    const std::vector<MissingFact> missing =
        missing_facts(ObservedIn::call_trace, call_scene(task, params, r.calls[0].trace));
    return !missing.empty() &&
           std::all_of(missing.begin(), missing.end(), [](const MissingFact& m) { return m.load_can_bend; });
}

TaskVerdict verdict_of_run(const TaskInfo& task, const Params& params, const RunReport& r)
{
    return decide({task.id, findings_of_run(task, SizeCase {params, "", false}, r)});
}

// A sanitizer run proves it ran with the program's calls all done under
// the tool and the tool's own summary in its log. A program that ends
// cleanly before its calls are done while its plain runs finished, or whose
// run lost the tool's summary, behaved differently when watched: tampering.
// One that ended early otherwise (a status, a fault) without the tool
// finding anything is what it is, a crash; where the tool found errors, its
// report explains the end; where the plain runs ended early too, theirs.
std::optional<Finding> finding_of_unproven_sanitizer_run(const SanitizerRun& s, const std::string& where)
{
    const RunReport& r = s.report;
    if (r.status == RunStatus::cancelled || calls_unknown(r.status)) return std::nullopt;
    const bool tool_found = s.findings.errors > 0 || (r.process.exited() && r.process.exit_code == kSanitizerErrorExit);
    if (tool_found) return std::nullopt;
    // memcheck ends its log with "ERROR SUMMARY:", racecheck with "RACECHECK SUMMARY:".
    const bool summary = r.tool_log.find(" SUMMARY: ") != std::string::npos;
    const bool clean_exit = r.process.exited() && r.process.exit_code == 0;
    if (r.status == RunStatus::completed && summary) return std::nullopt;
    if (r.status != RunStatus::completed && !s.plain_runs_finished) return std::nullopt;  // the plain runs' finding says it
    if (clean_exit)
        return make(Verdict::tampering,
                    r.status == RunStatus::completed
                        ? fmt::format("under compute-sanitizer {}, the tool's own report is missing from its log: "
                                      "something removed it",
                                      s.tool)
                        : fmt::format("under compute-sanitizer {}, the program ended with status 0 before its calls "
                                      "were done (it runs them when not watched)",
                                      s.tool),
                    where);
    if (r.status == RunStatus::ended_early || r.status == RunStatus::gpu_fault ||
        r.status == RunStatus::student_cuda_error || r.status == RunStatus::crashed)
        return make(Verdict::crash,
                    fmt::format("under compute-sanitizer {}, the program did not finish its calls: {}", s.tool,
                                r.status_message),
                    where);
    return std::nullopt;
}

// How a sanitizer run ended, where that is a finding of its own: the
// program is the same as in the plain runs, so only what it does differently
// under the tool (stall, end the tool, lie) is news. Its crashes and faults
// are the memcheck report's to explain.
std::optional<Finding> finding_of_sanitizer_end(const SanitizerRun& s, const std::string& where)
{
    const RunReport& r = s.report;
    if (r.status == RunStatus::timed_out)
        return make(Verdict::time_limit, fmt::format("under compute-sanitizer {}, {}", s.tool, r.status_message), where);
    if (r.status == RunStatus::tampered) return make(Verdict::tampering, r.status_message, where);
    if (r.process.started && r.process.signal != 0 && !r.process.timed_out && !r.process.cancelled)
        return make(Verdict::crash,
                    fmt::format("compute-sanitizer {} itself was ended: {}", s.tool, describe_signal(r.process.signal)),
                    where);
    return finding_of_unproven_sanitizer_run(s, where);
}

std::vector<Finding> findings_of_sanitizer(const SanitizerRun& s)
{
    const std::string where = format_params(s.size.params);
    std::vector<Finding> out;
    if (auto f = finding_of_sanitizer_end(s, where)) out.push_back(std::move(*f));
    // The tool's exit status is its own: a report hidden in a flood of the
    // program's output (or overwritten) still counts.
    const bool tool_found = s.report.process.exited() && s.report.process.exit_code == kSanitizerErrorExit;
    if (s.findings.errors == 0 && !tool_found) return out;
    const Verdict v = s.tool == "racecheck" ? Verdict::race : Verdict::memcheck;
    std::string msg = !s.findings.reports.empty()
                          ? s.findings.reports.front()
                          : fmt::format("{} reported an error{}", s.tool,
                                        s.findings.location.empty() ? " (its report was lost in the program's output)"
                                                                    : " at " + s.findings.location);
    if (s.findings.errors > 1) msg += fmt::format("\n({} errors in all)", s.findings.errors);
    out.push_back(make(v, msg, where));
    return out;
}

std::vector<Finding> findings_of_program(const TaskInfo& task, const ProgramFacts& facts)
{
    std::vector<Finding> out;
    if (!facts.kernels_known) return out;
    const auto library = facts.library_kernels();
    if (!library.empty() && task.judged_by(Invariant::own_code))
        out.push_back(make(Verdict::library_kernel,
                           fmt::format("your file compiles a library's kernel into the program: {}{}", library.front(),
                                       library.size() > 1 ? fmt::format(" (and {} more)", library.size() - 1) : ""),
                           ""));
    if (task.judged_by(Invariant::on_gpu) && facts.kernels.empty())
        out.push_back(make(Verdict::not_on_gpu, "your file defines no kernel (__global__ function): nothing of it "
                                                "can run on the GPU", ""));
    return out;
}

void gather_evidence(const LabInfo& lab, std::size_t index, const std::vector<PlannedRun>& plan,
                     std::vector<std::optional<RunReport>>& reports, TaskCheck& t)
{
    auto& findings = t.evidence.findings;
    for (std::size_t j = 0; j < plan.size(); ++j) {
        if (plan[j].task != index || !reports[j]) continue;  // skipped after a time limit
        RunReport& r = *reports[j];
        if (plan[j].sanitizer()) {
            SanitizerRun s {plan[j].tool, plan[j].size, std::move(r), {}};
            s.findings = parse_sanitizer_output(s.report.tool_log,
                                                lab.lab_dir.parent_path().parent_path(), lab.student_file);
            t.sanitizer.push_back(std::move(s));
            continue;
        }
        for (auto& f : findings_of_run(*t.task, plan[j].size, r)) {
            if (plan[j].again > 0) f.where += " (again, after the task's other sizes)";
            if (plan[j].ends != InputEnds::none) f.where += " (" + plan[j].size.why + ")";
            findings.push_back(std::move(f));
        }
        if (!t.traced && r.trace_available && !r.calls.empty() && r.calls[0].done && r.calls[0].trace.traced) {
            t.traced = true;
            const auto& trace = r.calls[0].trace;
            t.launch_count = trace.kernels;
            for (std::uint32_t k = 0; k < std::min<std::uint32_t>(trace.kernels, wire::kMaxKernelRecords); ++k)
                t.launches.push_back(trace.kernel[k]);
        }
        t.runs.push_back({plan[j].size, std::move(r), plan[j].ends});
    }
    // The sanitizer's runs after the plain ones: whether those finished tells
    // what an early end under the tool means.
    const bool plain_finished = std::all_of(t.runs.begin(), t.runs.end(), [](const auto& run) {
        return run.report.status == RunStatus::completed;
    });
    for (SanitizerRun& s : t.sanitizer) {
        s.plain_runs_finished = plain_finished;
        for (auto& f : findings_of_sanitizer(s)) findings.push_back(std::move(f));
    }
}

}  // namespace hpclab
