#include "check/lab_check.h"

#include "check/feedback.h"
#include "course/random.h"

#include <cxxabi.h>
#include <sched.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <future>
#include <memory>

namespace hpclab {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::uint64_t total_bytes(const TaskSpec& spec, const Params& p)
{
    std::uint64_t b = 0;
    for (const auto& d : spec.buffers(p)) b += d.bytes();
    return b;
}

std::int64_t volume(const Params& p)
{
    std::int64_t v = 1;
    for (const auto& [k, x] : p) v *= std::max<std::int64_t>(x, 1);
    return v;
}

bool ragged(const Params& p)
{
    return std::any_of(p.begin(), p.end(), [](const auto& kv) { return kv.second > 1 && kv.second % 32 != 0; });
}

double quantile(std::vector<double> v, double q)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
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

Finding make(Verdict kind, std::string message, std::string where)
{
    return Finding {kind, std::move(message), "", std::move(where)};
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

std::vector<SizeCase> sanitizer_sizes(const TaskSpec& spec, const TaskInfo& task, std::size_t at_most)
{
    constexpr std::uint64_t kSmall = 1u << 20;  // bytes: the tools run far slower than the GPU
    std::vector<SizeCase> small;
    for (const auto& s : task.sizes)
        if (!s.big && total_bytes(spec, s.params) <= kSmall) small.push_back(s);
    std::stable_sort(small.begin(), small.end(), [&](const SizeCase& a, const SizeCase& b) {
        const auto ba = total_bytes(spec, a.params), bb = total_bytes(spec, b.params);
        return ba != bb ? ba > bb : volume(a.params) > volume(b.params);
    });
    std::vector<SizeCase> out;
    // A ragged size first (a partial block is where out-of-bounds accesses live), then the largest.
    if (const auto it = std::find_if(small.begin(), small.end(), [](const SizeCase& s) { return ragged(s.params); });
        it != small.end())
        out.push_back(*it);
    for (const auto& s : small) {
        if (out.size() >= at_most) break;
        if (std::none_of(out.begin(), out.end(), [&](const SizeCase& o) { return o.params == s.params; }))
            out.push_back(s);
    }
    if (out.size() > at_most) out.resize(at_most);
    return out;
}

std::vector<Finding> findings_of_trace(const TaskInfo& task, const Params& params, const wire::CallTrace& t)
{
    std::vector<Finding> out;
    const std::string where = format_params(params);
    if (!t.traced) return out;
    const LaunchExpectation& e = task.expect;
    if (!e.kernel) {
        if (t.kernels > 0)
            out.push_back(make(Verdict::wrong_launch,
                               fmt::format("{} kernel launch(es) where none may run: {}", t.kernels,
                                           describe_launch(t.kernel[0])),
                               where));
        return out;
    }
    if (t.kernels == 0) {
        out.push_back(make(Verdict::not_on_gpu,
                           "no kernel ran during the call: the result was computed without the GPU", where));
        return out;
    }
    const std::uint32_t recorded = std::min<std::uint32_t>(t.kernels, wire::kMaxKernelRecords);
    auto any = [&](auto pred) {
        for (std::uint32_t i = 0; i < recorded; ++i)
            if (pred(t.kernel[i])) return true;
        return false;
    };
    if (!e.grid.empty() || !e.block.empty()) {
        if (!any([&](const wire::KernelRecord& k) {
                return shape_matches(e.grid, k.grid, params) && shape_matches(e.block, k.block, params);
            }))
            out.push_back(make(Verdict::wrong_launch,
                               fmt::format("the lesson asks for a grid of {} blocks of {} threads; your code launched {}",
                                           e.grid.empty() ? "any" : shape_text(e.grid, params),
                                           e.block.empty() ? "any" : shape_text(e.block, params),
                                           describe_launch(t.kernel[0])),
                               where));
    }
    if (e.two_d && !any([](const wire::KernelRecord& k) { return k.grid[1] > 1 || k.block[1] > 1; }))
        out.push_back(make(Verdict::wrong_launch,
                           fmt::format("the lesson asks for a 2-D launch (dim3 blocks and grid); your code launched {}",
                                       describe_launch(t.kernel[0])),
                           where));
    if (task.technique == "shared_memory" && !t.any_shared)
        out.push_back(make(Verdict::no_shared_memory,
                           fmt::format("this task asks for shared memory, and no kernel of the call used any "
                                       "(it launched {})",
                                       describe_launch(t.kernel[0])),
                           where));
    if (e.frees && t.allocated_bytes > t.freed_bytes)
        out.push_back(make(Verdict::memory_leak,
                           fmt::format("the call allocated {} bytes of device memory ({} cudaMalloc) and freed {} "
                                       "({} cudaFree)",
                                       t.allocated_bytes, t.allocations, t.freed_bytes, t.frees),
                           where));
    return out;
}

std::vector<Finding> findings_of_run(const LabInfo& lab, const TaskInfo& task, const SizeCase& size,
                                     const RunReport& r)
{
    (void)lab;
    std::vector<Finding> out;
    const std::string where = format_params(size.params);
    switch (r.status) {
    case RunStatus::completed: break;
    case RunStatus::no_gpu: out.push_back(make(Verdict::not_run, r.status_message, where)); return out;
    case RunStatus::timed_out: out.push_back(make(Verdict::time_limit, r.status_message, where)); break;
    case RunStatus::crashed:
    case RunStatus::ended_early: out.push_back(make(Verdict::crash, r.status_message, where)); break;
    case RunStatus::student_cuda_error: {
        // hpc.h printed which call failed, and where: show its first line.
        const std::string& err = r.process.err;
        const std::string first = err.substr(0, err.find('\n'));
        const auto detail = err.find("CUDA error");
        out.push_back(make(Verdict::cuda_error,
                           first + (detail != std::string::npos ? ": " + err.substr(detail, err.find('\n', detail) - detail)
                                                                : std::string()),
                           where));
        break;
    }
    case RunStatus::gpu_fault: out.push_back(make(Verdict::gpu_fault, r.status_message, where)); break;
    case RunStatus::cancelled: return out;
    case RunStatus::too_large:
    case RunStatus::could_not_start:
    case RunStatus::harness_error: out.push_back(make(Verdict::grader_error, r.status_message, where)); return out;
    }
    if (r.process.out_truncated)
        out.push_back(make(Verdict::output_limit, "the program printed more than 1 MiB; the rest was cut", where));
    for (std::size_t k = 0; k < r.calls.size(); ++k) {
        const CallReport& c = r.calls[k];
        if (!c.done) continue;
        const std::string at = r.calls.size() > 1 ? fmt::format("{}, call {}", where, k + 1) : where;
        if (!c.inputs_modified.empty())
            out.push_back(make(Verdict::input_modified,
                               fmt::format("your code wrote into input {}, which it must only read",
                                           c.inputs_modified.front()),
                               at));
        if (!c.guards_damaged.empty())
            out.push_back(make(Verdict::out_of_bounds,
                               fmt::format("your code wrote past the end (or before the start) of {}",
                                           c.guards_damaged.front()),
                               at));
        if (!c.check.ok() && c.inputs_modified.empty()) {
            const Verdict v = c.check.kind == CheckResult::Kind::unwritten ? Verdict::no_output : Verdict::wrong_answer;
            std::string msg = c.check.summary;
            if (c.launch_error) msg += fmt::format(" (a kernel launch failed: CUDA error {})", c.launch_error);
            out.push_back(make(v, msg, at));
        }
        if (k == 0)
            for (auto& f : findings_of_trace(task, size.params, c.trace)) out.push_back(std::move(f));
    }
    return out;
}

Finding finding_of_timing(const Timing& t)
{
    const std::string where = format_params(t.size);
    const std::string range = fmt::format("{:.2f}x the {} ({:.2f}..{:.2f}; needs {:.2f}x)", t.ratio, t.baseline,
                                          t.ratio_low, t.ratio_high, t.threshold);
    const double student = quantile(t.student_ms, 0.5);
    if (t.floor_ms > 0 && student < 0.9 * t.floor_ms)
        return make(Verdict::suspicious,
                    fmt::format("{:.3f} ms is below what the GPU's copy bandwidth allows for these bytes ({:.3f} ms): "
                                "a person will look at it",
                                student, t.floor_ms),
                    where);
    if (t.ratio_low >= t.threshold) return make(Verdict::pass, range, where);
    if (t.ratio_high < t.threshold && !t.unreliable) return make(Verdict::too_slow, range, where);
    return make(Verdict::inconclusive,
                range + (t.unreliable ? ": another process was using the GPU" : ": too close to call, rerun"), where);
}

namespace {

// Runs `jobs` at most `parallel` at a time, in their order: a worker that
// finishes one takes the next (a slow sanitizer run holds only its own
// slot). Results in the jobs' order.
template <class T> std::vector<T> run_bounded(std::vector<std::function<T()>> jobs, int parallel)
{
    std::vector<T> out(jobs.size());
    std::atomic<std::size_t> next {0};
    std::vector<std::future<void>> workers;
    const std::size_t nworkers = std::min<std::size_t>(jobs.size(), std::max(1, parallel));
    for (std::size_t w = 0; w < nworkers; ++w)
        workers.push_back(std::async(std::launch::async, [&] {
            for (std::size_t j = next++; j < jobs.size(); j = next++) out[j] = jobs[j]();
        }));
    for (auto& w : workers) w.get();  // rethrows a job's exception
    return out;
}

constexpr int kMaxTimingRounds = 3;
// Input sets the timed calls cycle through (see input_sets.h): consecutive
// calls always differ, and each call costs a device copy, not a host one.
constexpr std::uint32_t kTimingInputSets = 3;

// The speedup's median and its spread, from the quartiles of both samples.
void update_ratio(Timing& t)
{
    if (t.student_ms.empty() || t.baseline_ms.empty()) return;
    t.ratio = quantile(t.baseline_ms, 0.5) / quantile(t.student_ms, 0.5);
    t.ratio_low = quantile(t.baseline_ms, 0.25) / quantile(t.student_ms, 0.75);
    t.ratio_high = quantile(t.baseline_ms, 0.75) / quantile(t.student_ms, 0.25);
}

// Whether more rounds could change the outcome: not when the whole spread
// is on one side of the threshold, with a margin.
bool conclusive(Timing& t)
{
    update_ratio(t);
    if (t.student_ms.empty() || t.baseline_ms.empty()) return true;  // a run failed: more would not help
    return t.ratio_low >= t.threshold * 1.05 || t.ratio_high < t.threshold / 1.05;
}

RunRequest base_request(const LabInfo& lab, const TaskInfo& task, const std::filesystem::path& program,
                        const Params& params, std::uint64_t seed, const GpuInfo& gpu)
{
    RunRequest req;
    req.lab = &lab;
    req.task = &task;
    req.spec = find_task_spec(lab.id, task.id);
    req.params = params;
    req.program = program;
    req.seed = seed;
    req.gpu_memory_bytes = gpu.memory_bytes;
    req.wall_limit_s = lab.wall_limit_s;
    return req;
}

// The CPUs every timed program runs on: the last two this process may use.
// The time of a call includes the host's part (the launches, the wait). On
// the H100, one program ran every call up to 20% slower than another
// running the same code; the core each ran on is one difference between
// them that hpclab can remove.
std::vector<int> timing_cpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return {};
    std::vector<int> all;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) all.push_back(c);
    if (all.size() < 4) return {};  // too few to set two aside
    return {all.end() - 2, all.end()};
}

// The reference's task a task is timed against: the same task, or the one
// its threshold names (the reference's naive kernel). Null without a threshold.
const TaskInfo* baseline_task(const LabInfo& lab, const TaskInfo& task)
{
    if (!task.threshold) return nullptr;
    return task.threshold->baseline == "reference" ? &task : lab.find_task(task.threshold->baseline);
}

// A timed run's calls: a warm-up, then the task's repetitions.
std::uint32_t timed_calls(const TaskInfo& graded) { return 1 + static_cast<std::uint32_t>(graded.timing_reps); }

// One timed run of `runs` (the graded task, or its baseline) at the size and
// repetitions of the graded task. The student's outputs come back and are
// judged; the baseline's (the reference solution's) stay on the GPU: they
// are known good, and copying them back would only lengthen the check.
RunRequest timed_request(const LabInfo& lab, const TaskInfo& graded, const TaskInfo& runs,
                         const std::filesystem::path& program, std::uint64_t seed, const GpuInfo& gpu,
                         bool of_student, bool measure_copy)
{
    RunRequest req = base_request(lab, runs, program, graded.timing, seed, gpu);
    req.ncalls = timed_calls(graded);
    req.input_sets = kTimingInputSets;
    req.flush_l2 = true;
    req.trace = RunRequest::Trace::none;  // the correctness runs traced every call already
    req.outputs_only = true;
    req.measure_copy = measure_copy;
    req.judge_outputs = of_student;
    static const std::vector<int> cpus = timing_cpus();
    req.cpus = cpus;
    req.reference_budget = 2e7;
    return req;
}

// A task's first timing round, started before the correctness runs: both
// programs make their inputs and upload them meanwhile, then wait at their
// gates (gate.h) until the timing phase lets them run, one at a time.
struct PreparedRound {
    std::shared_ptr<Gate> baseline_gate = std::make_shared<Gate>(), student_gate = std::make_shared<Gate>();
    std::future<RunReport> baseline, student;

    PreparedRound() = default;
    PreparedRound(const PreparedRound&) = delete;
    PreparedRound& operator=(const PreparedRound&) = delete;
    // Not needed after all (a wrong answer, an exception): the programs end
    // at their closed gates, and the futures' threads with them.
    ~PreparedRound()
    {
        baseline_gate->close();
        student_gate->close();
        if (baseline.valid()) baseline.wait();
        if (student.valid()) student.wait();
    }

    // Lets one program make its timed calls and returns its report.
    RunReport run(bool of_student, double ready_within_s)
    {
        // The baseline goes first, once the student's program is ready too:
        // its uploads must not share the GPU with the baseline's calls.
        if (!of_student) (void)student_gate->wait_ready(ready_within_s);
        Gate& gate = of_student ? *student_gate : *baseline_gate;
        if (gate.wait_ready(ready_within_s)) gate.go();
        else gate.close();
        return (of_student ? student : baseline).get();
    }
};

}  // namespace

LabCheck check_lab(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab, const CheckOptions& o)
{
    const auto t_start = Clock::now();
    auto say = [&](const std::string& line) {
        if (o.progress) o.progress(line);
    };
    LabCheck out;
    out.lab = &lab;
    out.source = o.source;
    out.gpu = gpu;
    out.seed = o.seed ? *o.seed : fresh_seed();
    std::vector<const TaskInfo*> tasks;
    for (const auto& t : lab.tasks)
        if (o.only_task.empty() || t.id == o.only_task) tasks.push_back(&t);

    // Another process on the GPU makes timings unreliable: looked at before
    // this check starts any program of its own, and again once it is done.
    const int gpu_processes_before = o.timing && gpu.present ? gpu_processes_now() : 0;

    // The timed runs' preparation (seconds: inputs, a CUDA context, uploads)
    // overlaps the compile (the baseline: the reference solution, built and
    // cached once) and the correctness runs (the student's program); only
    // their calls wait for them. A failed compile closes the gates unused.
    const std::uint64_t timing_seed = mix64(out.seed ^ 0x71A1);
    std::shared_future<BuildResult> reference;
    std::vector<std::unique_ptr<PreparedRound>> prepared(tasks.size());
    const bool timed = o.timing && gpu.present &&
                       std::any_of(tasks.begin(), tasks.end(), [](const TaskInfo* t) { return bool(t->threshold); });
    if (timed) {
        reference = std::async(std::launch::async, [&tc, &lab] {
                        return build_lab_program(tc, lab, lab.solution_source(), "solution");
                    }).share();
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            const TaskInfo& task = *tasks[i];
            const TaskInfo* base_info = baseline_task(lab, task);
            if (!base_info) continue;
            auto p = std::make_unique<PreparedRound>();
            // Once run_task is back, the program has ended or never started:
            // either way the gate's program ends close here, so that waiting
            // for "ready" sees the end at once (program_started is idempotent).
            RunRequest base_req = timed_request(lab, task, *base_info, {}, timing_seed, gpu, false, true);
            base_req.gate = p->baseline_gate;
            p->baseline = std::async(std::launch::async, [reference, base_req]() mutable {
                const BuildResult& ref = reference.get();
                RunReport r;  // the reference not building is reported in the timing phase
                if (ref.ok) {
                    base_req.program = ref.program;
                    r = run_task(base_req);
                }
                base_req.gate->program_started();
                return r;
            });
            prepared[i] = std::move(p);
        }
    }

    auto t0 = Clock::now();
    // The reference solution checked as the student's code is the baseline's
    // build: one compile, not two of the same program at once.
    std::error_code same_ec;
    const bool is_reference = timed && o.variant == "solution" &&
                              std::filesystem::equivalent(o.source, lab.solution_source(), same_ec);
    out.build = is_reference ? reference.get() : build_lab_program(tc, lab, o.source, o.variant);
    out.compile_s = seconds_since(t0);
    if (!out.build.ok) {
        for (const TaskInfo* t : tasks) {
            TaskCheck tc_;
            tc_.task = t;
            tc_.evidence = {t->id, {make(Verdict::compile_error, out.build.diagnostics, "")}};
            tc_.verdict = decide(tc_.evidence);
            out.tasks.push_back(std::move(tc_));
        }
        out.overall = Verdict::compile_error;
        out.total_s = seconds_since(t_start);
        return out;
    }
    say(fmt::format("compiled in {:.1f} s{}", out.compile_s, out.build.cached ? " (up to date)" : ""));
    if (!gpu.present) {
        for (const TaskInfo* t : tasks) {
            TaskCheck tc_;
            tc_.task = t;
            tc_.evidence = {t->id, {make(Verdict::not_run, "no GPU here: " + gpu.why_not, "")}};
            tc_.verdict = decide(tc_.evidence);
            out.tasks.push_back(std::move(tc_));
        }
        out.overall = Verdict::not_run;
        out.total_s = seconds_since(t_start);
        return out;
    }

    for (std::size_t i = 0; i < tasks.size(); ++i) {
        PreparedRound* p = prepared[i].get();
        if (!p) continue;
        RunRequest student_req = timed_request(lab, *tasks[i], *tasks[i], out.build.program, timing_seed, gpu, true, false);
        student_req.gate = p->student_gate;
        p->student = std::async(std::launch::async, [student_req] {
            RunReport r = run_task(student_req);
            student_req.gate->program_started();
            return r;
        });
    }

    // Correctness runs and sanitizer runs, side by side: each a fresh process.
    const auto sanitizer = o.sanitizer ? find_compute_sanitizer(tc.nvcc) : std::nullopt;
    if (!o.sanitizer) out.sanitizer_note = "left out (--no-sanitizer)";
    else if (!sanitizer) out.sanitizer_note = "compute-sanitizer is not installed: graded without it";
    struct Job {
        std::size_t task;
        SizeCase size;
        std::string tool;  // empty: a correctness run
    };
    std::vector<Job> plan;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        for (const auto& s : tasks[i]->sizes)
            if (!s.big || o.big) plan.push_back({i, s, ""});
        if (!sanitizer) continue;
        const TaskSpec* spec = find_task_spec(lab.id, tasks[i]->id);
        for (const auto& s : sanitizer_sizes(*spec, *tasks[i], 2)) plan.push_back({i, s, "memcheck"});
        if (tasks[i]->technique == "shared_memory")
            for (const auto& s : sanitizer_sizes(*spec, *tasks[i], 1)) plan.push_back({i, s, "racecheck"});
    }
    // Order: the small correctness runs first (a hang shows there within the
    // lab's time limit, and cancels the task's other runs), then the
    // sanitizer's (slow), then the large correctness runs.
    const auto phase = [&](const Job& j) {
        if (!j.tool.empty()) return 1;
        const TaskSpec* spec = find_task_spec(lab.id, tasks[j.task]->id);
        return total_bytes(*spec, j.size.params) <= (1u << 20) ? 0 : 2;
    };
    std::stable_sort(plan.begin(), plan.end(), [&](const Job& a, const Job& b) { return phase(a) < phase(b); });
    // A task whose run hit the time limit is not run again: the other sizes
    // would only wait out the same limit.
    auto timed_out = std::make_unique<std::atomic<bool>[]>(tasks.size());
    std::vector<std::function<std::optional<RunReport>()>> jobs;
    for (const Job& j : plan)
        jobs.push_back([&, j]() -> std::optional<RunReport> {
            if (timed_out[j.task]) return std::nullopt;
            // A seed per task and size, from the check's: --seed replays every run.
            const std::string key = tasks[j.task]->id + format_params(j.size.params);
            std::uint64_t seed = out.seed;
            for (char c : key) seed = mix64(seed ^ static_cast<unsigned char>(c));
            RunRequest req = base_request(lab, *tasks[j.task], out.build.program, j.size.params, seed, gpu);
            if (j.size.big) req.wall_limit_s = lab.big_wall_limit_s;
            if (j.tool.empty()) {
                req.trace = RunRequest::Trace::every_call;
            } else {
                req.wrapper = sanitizer_command(*sanitizer, j.tool);
                req.guard_zones = false;  // the tool must see the buffers' true ends
                req.wall_limit_s = std::max(60.0, lab.wall_limit_s * 4);
            }
            req.cancel = &timed_out[j.task];
            RunReport r = run_task(req);
            if (r.status == RunStatus::timed_out) timed_out[j.task] = true;
            if (r.status == RunStatus::cancelled) return std::nullopt;
            return r;
        });
    t0 = Clock::now();
    std::vector<std::optional<RunReport>> reports = run_bounded(std::move(jobs), o.parallel_runs + (sanitizer ? 2 : 0));
    const double runs_wall = seconds_since(t0);

    // The split of the wall time between the kinds of runs, for the report.
    double sanitizer_busy = 0, run_busy = 0;
    for (std::size_t j = 0; j < plan.size(); ++j)
        if (reports[j]) (plan[j].tool.empty() ? run_busy : sanitizer_busy) += reports[j]->process.wall_s;
    out.run_s = runs_wall * (run_busy / std::max(1e-9, run_busy + sanitizer_busy));
    out.sanitizer_s = runs_wall - out.run_s;

    for (std::size_t i = 0; i < tasks.size(); ++i) {
        TaskCheck tcheck;
        tcheck.task = tasks[i];
        tcheck.evidence.task = tasks[i]->id;
        for (std::size_t j = 0; j < plan.size(); ++j) {
            if (plan[j].task != i || !reports[j]) continue;  // skipped after a time limit
            RunReport& r = *reports[j];
            if (plan[j].tool.empty()) {
                for (auto& f : findings_of_run(lab, *tasks[i], plan[j].size, r))
                    tcheck.evidence.findings.push_back(std::move(f));
                if (!tcheck.traced && r.trace_available && !r.calls.empty() && r.calls[0].done &&
                    r.calls[0].trace.traced) {
                    tcheck.traced = true;
                    const auto& t = r.calls[0].trace;
                    tcheck.launch_count = t.kernels;
                    for (std::uint32_t k = 0; k < std::min<std::uint32_t>(t.kernels, wire::kMaxKernelRecords); ++k)
                        tcheck.launches.push_back(t.kernel[k]);
                }
                tcheck.runs.push_back({plan[j].size, std::move(r)});
            } else {
                SanitizerRun s {plan[j].tool, plan[j].size, std::move(r), {}};
                s.findings = parse_sanitizer_output(s.report.process.out + s.report.process.err,
                                                    lab.lab_dir.parent_path().parent_path(), lab.student_file);
                if (s.findings.errors > 0) {
                    const Verdict v = s.tool == "racecheck" ? Verdict::race : Verdict::memcheck;
                    std::string msg = !s.findings.reports.empty()
                                          ? s.findings.reports.front()
                                          : fmt::format("{} reported an error{}", s.tool,
                                                        s.findings.location.empty() ? "" : " at " + s.findings.location);
                    if (s.findings.errors > 1) msg += fmt::format("\n({} errors in all)", s.findings.errors);
                    tcheck.evidence.findings.push_back(make(v, msg, format_params(s.size.params)));
                }
                tcheck.sanitizer.push_back(std::move(s));
            }
        }
        out.tasks.push_back(std::move(tcheck));
    }
    say(fmt::format("ran {} sizes{} in {:.1f} s", plan.size(), sanitizer ? " (with the sanitizer's runs)" : "", runs_wall));

    // Speed, only where everything else is right: the student's timed calls
    // against the baseline's, one program at a time, on the same inputs.
    t0 = Clock::now();
    for (std::size_t i = 0; i < out.tasks.size(); ++i) {
        TaskCheck& tcheck = out.tasks[i];
        const TaskInfo& task = *tcheck.task;
        const bool correct = std::none_of(tcheck.evidence.findings.begin(), tcheck.evidence.findings.end(),
                                          [](const Finding& f) { return is_failure(f.kind); });
        std::unique_ptr<PreparedRound> first_round = std::move(prepared[i]);
        if (!o.timing || !task.threshold || !correct || !first_round) continue;
        const BuildResult& ref = reference.get();
        if (!ref.ok) {
            tcheck.evidence.findings.push_back(
                make(Verdict::grader_error, "the reference solution does not build:\n" + ref.diagnostics, ""));
            continue;
        }
        const TaskInfo* base_info = baseline_task(lab, task);  // not null: its round was prepared
        Timing timing;
        timing.baseline = base_info == &task ? "reference solution" : "reference's " + base_info->id;
        timing.size = task.timing;
        timing.threshold = task.threshold->min_speedup;
        // Rounds of (baseline, student), until the ratio's spread is clear of
        // the threshold: far from it, one round decides; close to it, up to
        // three. The first round was prepared during the correctness runs.
        for (int round = 0; round < kMaxTimingRounds; ++round) {
            if (round > 0 && conclusive(timing)) break;
            for (const bool student : {false, true}) {
                RunReport r;
                if (round == 0) {
                    r = first_round->run(student, std::max(30.0, 2 * lab.wall_limit_s));
                } else {
                    r = run_task(timed_request(lab, task, student ? task : *base_info,
                                               student ? out.build.program : ref.program, timing_seed, gpu, student, false));
                }
                if (student) {
                    // The timed calls are checked too: a result cached from an earlier call fails here.
                    for (auto& f : findings_of_run(lab, task, {task.timing, "the timing size", false}, r))
                        if (is_failure(f.kind)) tcheck.evidence.findings.push_back(std::move(f));
                }
                if (!r.passed()) continue;
                auto& into = student ? timing.student_ms : timing.baseline_ms;
                for (std::size_t k = 1; k < r.calls.size(); ++k) into.push_back(r.calls[k].gpu_ms);
                if (!student && round == 0) timing.copy_gbps = r.copy_gbps;
            }
        }
        const int after = gpu_processes_now();
        timing.unreliable = gpu_processes_before > 0 || after > 0;
        update_ratio(timing);
        if (timing.student_ms.empty() || timing.baseline_ms.empty()) {
            if (timing.baseline_ms.empty())
                tcheck.evidence.findings.push_back(
                    make(Verdict::grader_error, "the reference solution failed its timed run", format_params(task.timing)));
            continue;
        }
        const Work w = find_task_spec(lab.id, task.id)->work(task.timing);
        if (timing.copy_gbps > 0 && w.bytes > 0) timing.floor_ms = w.bytes / timing.copy_gbps * 1e3;
        tcheck.evidence.findings.push_back(finding_of_timing(timing));
        tcheck.timing = std::move(timing);
    }
    prepared.clear();  // any left (a task not timed) end at their closed gates
    out.timing_s = seconds_since(t0);

    for (TaskCheck& tcheck : out.tasks) {
        tcheck.verdict = decide(tcheck.evidence);
        if (is_failure(tcheck.verdict.verdict))
            tcheck.verdict.reason.hint = likely_bug(lab, tcheck.verdict.verdict, tcheck.verdict.reason);
    }
    std::vector<TaskVerdict> verdicts;
    for (const auto& t : out.tasks) verdicts.push_back(t.verdict);
    out.overall = worst(verdicts);
    out.other_gpu_processes = gpu_processes_now();
    out.total_s = seconds_since(t_start);
    return out;
}

}  // namespace hpclab
