#include "check/profile.h"

#include "check/decide.h"
#include "run/profiler.h"
#include "run/run_recipe.h"
#include "run/sanitizer.h"
#include "run/task_runner.h"
#include "util/git_blob.h"
#include "util/statistics.h"
#include "util/text.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <mutex>
#include <thread>

namespace hpclab {

bool wants_profile(const TaskCheck& t)
{
    if (!t.task->threshold || !t.timing) return false;
    const Verdict v = decide(t.evidence).verdict;
    if (v == Verdict::too_slow) return true;
    return v == Verdict::pass && t.timing->ratio < t.timing->threshold * kSlowPassMargin;
}

namespace {

// The longest a profile waits for another's to let the counters go: a few
// seconds each (docs/results/profile-h200.txt), and at most a run's limit.
constexpr double kCountersWait_s = 120;
constexpr int kProfileAttempts = 2;

// The student's kernels: those of its own object's machine code (the
// harness's are in the program too, and are not the student's to explain).
std::vector<std::string> student_kernels(const ProgramFacts& facts)
{
    std::vector<std::string> out;
    for (const KernelCode& k : facts.code) out.push_back(k.name);
    return out;
}

std::vector<std::pair<std::string, std::string>> every_measure(const ProfileValues& v)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const ProfileMeasure& m : kProfileMeasures)
        if (v.knows(m.name)) out.emplace_back(m.name, v.shown(m.name));
    return out;
}

// The run's own failure, in a line, with what its last lines of errors
// said (ncu's own, when it stopped before its log was open).
std::string run_problem(const RunReport& r)
{
    if (r.status == RunStatus::completed) return "";
    std::string said = trimmed(r.process.err);
    if (said.size() > 300) said = "..." + said.substr(said.size() - 300);
    return fmt::format("the program did not finish under ncu ({}){}",
                       r.status_message.empty() ? "no reason given" : r.status_message,
                       said.empty() ? "" : ": " + said);
}

// The measures of the program as given, kept beside its build: one
// "<key> <value>" line each, per GPU (their counters are the GPU's).
std::filesystem::path kept_measures(const BuildResult& build, const GpuInfo& gpu)
{
    return build.program.parent_path() / ("as-given-measures-" + git_blob_id(gpu.name + gpu.uuid) + ".txt");
}

std::optional<AsGivenMeasures> read_kept(const std::filesystem::path& file, const LabInfo& lab)
{
    std::ifstream in(file);
    AsGivenMeasures m;
    std::string key;
    double value = 0;
    while (in >> key >> value) m.values[key] = value;
    for (const AnswerAsked& q : lab.answers)
        if (!m.values.count(q.key())) return std::nullopt;
    return m;
}

AsGivenMeasures measure_each_question(const ProfileSetup& setup, const LabInfo& lab, const BuildResult& build)
{
    AsGivenMeasures m;
    std::map<std::string, TaskProfile> profiles;  // by task: one run a task, whatever it is asked
    for (const AnswerAsked& q : lab.answers) {
        if (!profiles.count(q.task)) {
            const TaskCheck t {.task = lab.find_task(q.task)};
            profiles[q.task] = profile_task(setup, lab, t, build.program, build.facts);
        }
        const TaskProfile& p = profiles[q.task];
        if (!p.inconclusive.empty()) return {.problem = "the profile of the program as given: " + p.inconclusive};
        for (const auto& [name, shown] : p.measured)
            if (name == q.measure) m.values[q.key()] = std::stod(shown);
        if (!m.values.count(q.key()))
            return {.problem = fmt::format("the profile of the program as given has no {}", q.measure)};
    }
    return m;
}

}  // namespace

AsGivenMeasures measure_as_given(const ProfileSetup& setup, const Toolchain& tc, const LabInfo& lab)
{
    // One check at a time measures it (a class's checks start eight at once).
    static std::mutex one_at_a_time;
    const std::lock_guard lock(one_at_a_time);
    const auto text = read_text_file(lab.answers_program);
    if (!text || git_blob_id(*text) != lab.skeleton_blob)
        return {.problem = fmt::format("{} is not the program as given (lab.json's skeleton_blob): restore it "
                                       "with git checkout",
                                       lab.answers_program.string())};
    BuildResult build = build_lab_program(tc, lab, lab.answers_program, "as-given");
    if (!build.ok) return {.problem = "the program as given did not build: " + build.diagnostics};
    complete_program_code(tc, build);
    const std::filesystem::path kept = kept_measures(build, *setup.gpu);
    // And one process at a time (the README's tests start several timed
    // checks of the lab at once): the others read what the first kept. The
    // lock goes with the process, and is waited for no longer than the
    // counters are (past that, this process measures for itself).
    // Without the sandbox a student's program could write the file, as it
    // could the build cache: grading refuses to run so unless told the
    // files are trusted (--no-sandbox), and each record says "sandbox: off".
    const int lock_fd = ::open((kept.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::duration<double>(kCountersWait_s);
    while (lock_fd >= 0 && ::flock(lock_fd, LOCK_EX | LOCK_NB) != 0 && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::optional<AsGivenMeasures> m = read_kept(kept, lab);
    if (!m) {
        m = measure_each_question(setup, lab, build);
        if (m->problem.empty()) {  // whole or not at all: written aside, then renamed
            std::ofstream out(kept.string() + ".new");
            for (const auto& [key, value] : m->values) out << key << ' ' << value << '\n';
            out.close();
            std::error_code ec;
            std::filesystem::rename(kept.string() + ".new", kept, ec);
        }
    }
    if (lock_fd >= 0) ::close(lock_fd);
    return *m;
}

std::string measured_line(const TaskProfile& p)
{
    std::string out;
    for (const auto& [name, shown] : p.measured) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", name, shown);
    return out;
}

std::string profile_line(const TaskProfile& p)
{
    if (!p.inconclusive.empty()) return "inconclusive: " + p.inconclusive;
    if (!p.sentence.empty()) return p.sentence;
    return std::string(kNoSentence) + " (" + measured_line(p) + ")";
}

ProfileExpectation profile_against(const LabCheck& c, const std::string& measure)
{
    ProfileExpectation out;
    for (const TaskCheck& t : c.tasks) {
        if (!t.profile) continue;
        if (t.profile->measure == measure) return {.met = true};
        out.got += fmt::format("{}{}: {}", out.got.empty() ? "" : "; ", t.task->id, profile_line(*t.profile));
    }
    if (out.got.empty()) out.got = "no profile";
    return out;
}

TaskProfile profile_task(const ProfileSetup& setup, const LabInfo& lab, const TaskCheck& t,
                         const std::filesystem::path& program, const ProgramFacts& facts)
{
    const auto t0 = std::chrono::steady_clock::now();
    TaskProfile out;
    const std::vector<std::string> kernels = student_kernels(facts);
    if (!setup.ncu) out.inconclusive = kNoNcu;
    else if (!facts.code_known || kernels.empty()) out.inconclusive = "the program's kernels are not known";
    if (!out.inconclusive.empty()) return out;
    out.tool = setup.ncu->name();
    ToolLog log;
    RunRequest req = correctness_run({.lab = &lab,
                                      .task = t.task,
                                      .program = program,
                                      .params = t.task->timing,
                                      .seed = setup.seed,
                                      .gpu_memory_bytes = setup.gpu->memory_bytes,
                                      .gpu_minor = setup.gpu->minor,
                                      .gpu_uuid = setup.gpu->visible_as(),
                                      .facts = facts},
                                     // no trace (ncu holds the counters), a sanitizer run's limit
                                     {.under_sanitizer = true, .hang_after_s = setup.hang_after_s});
    req.wrapper = profiler_command(setup.ncu->ncu, kernels, log.file());
    if (!setup.ncu->folder.empty()) req.wrapper_folders.push_back(setup.ncu->folder);
    req.writable.push_back(log.dir());
    RunReport r;
    NcuReading reading;
    // A program that ran its timed calls and did not finish under ncu, once
    // more: ncu's own failure beside the other tools' starts ("Failed to
    // prepare kernel for profiling; Unknown Error on device 0", call 22b).
    for (int attempt = 0; attempt < kProfileAttempts; ++attempt) {
        std::error_code ec;
        std::filesystem::remove(log.file(), ec);
        const GpuTurns::Counters counters(kCountersWait_s);
        r = while_program_runs(setup.turns, false, req, [&] { return run_task(req); });
        reading = read_ncu_log(log.read());
        if (run_problem(r).empty()) break;
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!reading.problem.empty()) {
        const std::string ran = run_problem(r);
        out.inconclusive = ran.empty() ? reading.problem : ran + "; " + reading.problem;
        return out;
    }
    const CallBasis basis {.ideal_bytes = r.work.bytes, .call_ms = t.timing ? median(t.timing->student_ms) : 0};
    const ProfileValues values = profile_values(reading.launches, basis);
    out.measured = every_measure(values);
    std::vector<ProfileRule> rules = t.task->profile;  // the task's own first, then the lab's
    rules.insert(rules.end(), lab.profile.begin(), lab.profile.end());
    if (auto said = profile_sentence(rules, values)) {
        out.sentence = std::move(said->text);
        out.measure = std::move(said->measure);
    }
    return out;
}

}  // namespace hpclab
