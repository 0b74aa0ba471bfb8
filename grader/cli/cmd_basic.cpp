// hpclab list, info, build.
#include "commands.h"
#include "program_lab_view.h"
#include "student/progress_view.h"

#include "hpclab_build_config.h"
#include "course/mistakes_table.h"
#include "run/sanitizer.h"
#include "student/state_dir.h"
#include "util/escape.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>

namespace hpclab::cli {

namespace {

std::string describe_tolerance(const Tolerance& t)
{
    if (t.kind == Tolerance::Kind::exact) return "exact";
    return fmt::format("|got - expected| <= {:g} x scale{}", t.rtol, t.atol > 0 ? fmt::format(" + {:g}", t.atol) : "");
}

// A task's threshold in effect and where it comes from: lab.json (measured
// on the course's GPU, its note says how) or the course config (measured on
// this course's GPU by hpclab calibrate).
void print_threshold(Context& ctx, const LabInfo& lab, const Threshold& th)
{
    const std::string origin =
        th.set_by.empty() ? fmt::format("from lab.json, {}", th.calibrated ? "calibrated" : "not calibrated yet")
                          : fmt::format("from {}, in place of lab.json's {:g}", relative_to_root(ctx, th.set_by), th.shipped);
    fmt::print("  speed: at least {:g}x the {} of {} ({}){}\n", th.min_speedup,
               th.baseline == "reference" ? "same task" : "task " + th.baseline,
               relative_to_root(ctx, lab.baseline_source), origin,
               th.note.empty() ? "" : "\n    lab.json: " + th.note);
}

// The invariants a task is judged by (course/invariants.h), each it is
// opted out of, with lab.json's reason, and the lesson facts it asks.
void print_invariants(const TaskInfo& t)
{
    std::vector<std::string_view> held;
    for (const InvariantInfo& i : invariant_table())
        if (t.judged_by(i.id)) held.push_back(i.name);
    fmt::print("  invariants: {}\n", held.empty() ? "none" : fmt::format("{}", fmt::join(held, ", ")));
    for (const auto& [invariant, why] : t.opted_out)
        fmt::print("  not judged by {}: {}\n", invariant_info(invariant).name, for_terminal(why));
    for (const ShownFact& f : t.expect.shows)
        fmt::print("  the lesson's fact {}{}{}: {}\n", lesson_fact_info(f.fact).name,
                   f.blocks_per_sm ? fmt::format(" (at most {} blocks per multiprocessor)", f.blocks_per_sm) : "",
                   f.from.empty() ? "" : " from " + format_params(f.from), lesson_fact_info(f.fact).observed);
}

// One lab's record, from its lab.json: what the docs point to for sizes and thresholds.
int list_lab(Context& ctx, const LabInfo& lab)
{
    if (const auto* whole = whole_program_commands(lab)) return whole->list(ctx, lab);
    fmt::print("{}. {}: {}\n\n{}\n\n", lab.order, lab.id, lab.title, lab.teaches);
    fmt::print("Course program: {}\nYou edit:       {}\nContract:       {} ({} pointers)\nWalkthrough:    {}\n",
               lab.course_program, relative_to_root(ctx, lab.student_source()),
               relative_to_root(ctx, lab.lab_dir / lab.header), lab.pointers, relative_to_root(ctx, lab.doc));
    if (!lab.params.empty()) {
        fmt::print("Size options:  ");
        for (const auto& p : lab.params) fmt::print(" --{} ({}, {}..{})", p.name, p.help, p.min, p.max);
        fmt::print("\n");
    }
    for (const auto& t : lab.tasks) {
        fmt::print("\nTask {}: {}\n  calls {}(); tolerance {}\n", t.id, t.title, t.entry, describe_tolerance(t.tolerance));
        if (!t.launch.empty()) fmt::print("  launch: {}\n", t.launch);
        if (!t.technique.empty()) fmt::print("  technique: {}\n", t.technique);
        fmt::print("  sizes (hpclab run {} --all-sizes):\n", lab.id);
        for (const auto& s : t.sizes)
            fmt::print("    {:<28} {}{}\n", format_params(s.params), s.why, s.big ? "  [big: with --big]" : "");
        fmt::print("  timed at {} by hpclab run, at {} by hpclab check ({} calls after a warm-up)\n",
                   format_params(t.demo), format_params(t.timing), t.timing_reps);
        if (t.threshold) print_threshold(ctx, lab, *t.threshold);
        print_invariants(t);
    }
    fmt::print("\n{} hints, from gentle to explicit, in {}.\n", lab.hints.size(),
               relative_to_root(ctx, lab.lab_dir / "lab.json"));
    fmt::print("Invariants: what holds for every task of every lab (docs/how-hpclab-checks.md):\n");
    for (const InvariantInfo& i : invariant_table()) fmt::print("  {}: {}\n", i.name, i.rule);
    return kPass;
}

}  // namespace

int cmd_list(Context& ctx, bool markdown, const std::string& lab_id)
{
    if (!lab_id.empty() && markdown) {
        // The walkthrough's table of mistakes (a test keeps them equal).
        fmt::print("{}", mistakes_markdown(ctx.lab(lab_id)));
        return kPass;
    }
    if (!lab_id.empty()) return list_lab(ctx, ctx.lab(lab_id));
    if (markdown) {
        // The README's lab table, from the metadata (a test keeps them equal).
        fmt::print("| # | lab | what you write | the course's program | tasks |\n|---|---|---|---|---|\n");
        for (const auto& lab : ctx.catalog().labs()) {
            std::string tasks;
            for (const auto& t : lab.tasks) tasks += (tasks.empty() ? "" : ", ") + t.id;
            fmt::print("| {} | [{}](docs/{}.md) | {} | {} | {} |\n", lab.order, lab.id, lab.id, lab.title,
                       lab.course_program, tasks);
        }
        return kPass;
    }
    const Progress progress = Progress::load(ctx.catalog().root());
    fmt::print("Progress: {}\n\n", progress_bar(ctx.catalog(), progress));
    fmt::print("The labs, in course order ([x] solved, [!] last check failed, [ ] not tried):\n\n");
    for (const auto& lab : ctx.catalog().labs()) {
        const LabProgress* p = progress.find(lab.id);
        fmt::print("  {} {:>2}. {:<10} {}\n", progress_mark(p), lab.order, lab.id, lab.title);
        fmt::print("          {:<10} edit {}, from the course's {}\n", "",
                   relative_to_root(ctx, lab.student_source()), lab.course_program);
        for (const auto& t : lab.tasks) fmt::print("          {:<10} - {}: {}\n", "", t.id, t.title);
        fmt::print("          {:<10} {}\n", "", progress_line(lab, p));
    }
    fmt::print("\nRun one with: hpclab run <lab>   (the walkthroughs are in docs/<lab>.md)\n"
               "Stuck? hpclab hint <lab>.   Check on every save: hpclab watch\n");
    return kPass;
}

int cmd_info(Context& ctx)
{
    const Toolchain& tc = ctx.toolchain();
    fmt::print("Course folder:  {}\n", ctx.catalog().root().string());
    fmt::print("Labs:           {}\n", ctx.catalog().ids());
    fmt::print("hpclab:         {}\n", HPCLAB_VERSION);
    if (tc.available()) {
        fmt::print("CUDA compiler:  {} (nvcc {})\n", tc.nvcc.string(), tc.nvcc_version);
        fmt::print("Architectures:  {}  (override with HPCLAB_CUDA_ARCHITECTURES)\n", tc.architectures);
        fmt::print("Lab programs:   {}\n", tc.cache_dir.string());
    } else {
        fmt::print("CUDA compiler:  none - {}\n", tc.unavailable);
    }
    // Each tool a check uses, found or not, and what is lost without it.
    const auto sanitizer = tc.nvcc.empty() ? std::nullopt : find_compute_sanitizer(tc.nvcc);
    fmt::print("Sanitizer:      {}\n", sanitizer ? sanitizer->string()
                                                 : "compute-sanitizer not found: checks run without memcheck and racecheck");
    fmt::print("Machine code:   {}\n", tc.cuobjdump.empty()
                                            ? "cuobjdump not found: checks cannot read what your kernels compiled to"
                                            : tc.cuobjdump.string());
    fmt::print("Launch records: {}\n", tc.cupti_lib_dir.empty()
                                            ? "CUPTI not found: checks cannot see what your code launched"
                                            : "CUPTI in " + tc.cupti_lib_dir.string());
    fmt::print("State:          {}  (progress, check records; HPCLAB_STATE moves it)\n",
               state_dir(ctx.catalog().root()).string());
    const GpuInfo& gpu = ctx.gpu();
    if (gpu.present)
        fmt::print("GPU:            {} (compute capability {}.{}, {:.1f} GB, driver CUDA {}, {})\n", gpu.name,
                   gpu.cc_major, gpu.cc_minor, gpu.memory_bytes / 1e9, gpu.driver_string(), gpu.uuid);
    else
        fmt::print("GPU:            none - {}\n", gpu.why_not);
    return kPass;
}

int cmd_build(Context& ctx, const std::string& lab_id, Variant v)
{
    const LabInfo& lab = ctx.lab(lab_id);
    if (!ctx.toolchain().available()) {
        fmt::print(stderr, "hpclab: cannot build: {}\n", ctx.toolchain().unavailable);
        return kSkipped;
    }
    const auto program = build_program(ctx.build_site(), lab, v, false);
    if (!program) return kFail;
    fmt::print("Built {}\n", relative_to_root(ctx, *program));
    return kPass;
}

int cmd_verdicts(const std::string& cmake_file)
{
    if (cmake_file.empty()) {
        fmt::print("The verdicts of hpclab check, in order of precedence (the first that applies wins):\n\n");
        fmt::print("{:<18} {:<34} {:<10} {}\n", "name", "title", "class", "exit");
        for (const VerdictInfo& v : verdict_table())
            fmt::print("{:<18} {:<34} {:<10} {}\n", v.name, v.title, class_name(v.kind), static_cast<int>(v.exit_status));
        return kPass;
    }
    // The names, and those only a timed check can give (a pass included:
    // with a threshold, passing means fast enough).
    std::vector<std::string_view> all, timed;
    for (const VerdictInfo& v : verdict_table()) {
        all.push_back(v.name);
        if (v.kind == VerdictClass::speed || v.verdict == Verdict::pass) timed.push_back(v.name);
    }
    std::ofstream out(cmake_file);
    out << "# Written by hpclab verdicts --cmake: the verdict table (grader/course/verdict.cpp).\n"
        << fmt::format("set(HPCLAB_VERDICTS \"{}\")\n", fmt::join(all, ";"))
        << fmt::format("set(HPCLAB_TIMED_VERDICTS \"{}\")\n", fmt::join(timed, ";"));
    if (!out) throw UsageError("cannot write " + cmake_file);
    return kPass;
}

}  // namespace hpclab::cli
