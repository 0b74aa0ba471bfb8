#include "check/grade_record.h"

#include "process/sandbox.h"
#include "check/evidence.h"
#include "check/profile.h"
#include "check/release_evidence.h"
#include "util/atomic_file.h"
#include "util/text_file.h"

#include "util/clock_text.h"

#include "util/keyed_hash.h"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <span>
#include <sstream>

namespace hpclab {

using nlohmann::json;

namespace {

json kernel_json(const wire::KernelRecord& k)
{
    return {{"name", demangle(std::string(k.name, wire::name_length(k.name, sizeof k.name)))},
            {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
            {"block", {k.block[0], k.block[1], k.block[2]}},
            {"shared_bytes", k.static_shared + k.dynamic_shared},
            {"ms", k.duration_ns / 1e6}};
}

// What the call made and what it left, by kind (only kinds it made).
json ledger_json(const wire::ResourceLedger& l)
{
    json made = json::object(), left = json::object();
    for (int k = 0; k < wire::kResourceKinds; ++k) {
        if (l.made[k] == 0 && l.left[k] == 0) continue;
        made[std::string(resource_kind_name(k))] = l.made[k];
        left[std::string(resource_kind_name(k))] = l.left[k];
    }
    return {{"kept", l.traced == 1}, {"made", made}, {"left", left}};
}

json trace_json(const wire::CallTrace& t)
{
    json kernels = json::array();
    for (std::uint32_t i = 0; i < std::min<std::uint32_t>(t.kernels, wire::kMaxKernelRecords); ++i)
        kernels.push_back(kernel_json(t.kernel[i]));
    return {{"kernels", t.kernels},        {"launches", kernels},           {"kernel_ms", t.kernel_ns / 1e6},
            {"h2d_bytes", t.h2d_bytes},    {"d2h_bytes", t.d2h_bytes},       {"d2d_bytes", t.d2d_bytes},
            {"memsets", t.memsets},        {"allocated_bytes", t.allocated_bytes}, {"freed_bytes", t.freed_bytes},
            {"dropped_records", t.dropped}, {"resources", ledger_json(t.resources)}};
}

// Each phase's seconds that a check times apart (check/lab_check.h, kCheckPhases), and the total.
json seconds_of_phases(const LabCheck& c)
{
    json seconds = json::object();
    for (const CheckPhaseInfo& p : kCheckPhases)
        if (p.seconds) seconds[std::string(p.key)] = c.*p.seconds;
    seconds["total"] = c.total_s;
    return seconds;
}

json finding_json(const Finding& f)
{
    return {{"verdict", verdict_name(f.kind)}, {"message", f.message}, {"where", f.where}, {"hint", f.hint}};
}

json run_json(const SizeCase& size, const RunReport& r)
{
    json calls = json::array();
    for (const auto& c : r.calls) {
        json call = {{"done", c.done},          {"passed", c.passed()},  {"check", c.check.summary},
                     {"gpu_ms", c.gpu_ms},      {"wall_ms", c.host_ms},  {"returned", c.returned},
                     {"launch_error", c.launch_error}};
        if (c.trace.traced) call["trace"] = trace_json(c.trace);
        calls.push_back(std::move(call));
    }
    return {{"size", size.params},  {"why", size.why},           {"seed", r.seed},
            {"status", static_cast<int>(r.status)}, {"status_message", r.status_message},
            {"exit_code", r.process.exit_code}, {"signal", r.process.signal}, {"wall_s", r.process.wall_s},
            {"calls", calls}};
}

std::string now_iso() { return now_text("%Y-%m-%dT%H:%M:%SZ", Zone::utc); }

}  // namespace

json grade_record(const LabCheck& c, const Toolchain& tc)
{
    const LabInfo& lab = *c.lab;
    const std::string text = read_text_file(c.source).value_or("");

    json tasks = json::array();
    for (const TaskCheck& t : c.tasks) {
        json runs = json::array();
        for (const auto& r : t.runs) runs.push_back(run_json(r.size, r.report));
        json sanitizer = json::array();
        for (const auto& s : t.sanitizer)
            sanitizer.push_back({{"tool", s.tool},
                                 {"size", s.size.params},
                                 {"errors", s.findings.errors},
                                 {"location", s.findings.location},
                                 {"reports", s.findings.reports},
                                 {"exit_code", s.report.process.exit_code},
                                 {"log", s.report.tool_log.substr(0, 4096)},
                                 {"output", (s.report.process.out + s.report.process.err).substr(0, 4096)}});
        json findings = json::array();
        for (const auto& f : t.evidence.findings) findings.push_back(finding_json(f));
        json task = {{"task", t.task->id},
                     {"verdict", verdict_name(t.verdict.verdict)},
                     {"reason", finding_json(t.verdict.reason)},
                     {"findings", findings},
                     {"runs", runs},
                     {"sanitizer", sanitizer}};
        if (t.timing)
            task["timing"] = {{"baseline", t.timing->baseline},     {"size", t.timing->size},
                              {"student_ms", t.timing->student_ms}, {"baseline_ms", t.timing->baseline_ms},
                              {"ratio", t.timing->ratio},           {"ratio_low", t.timing->ratio_low},
                              {"ratio_high", t.timing->ratio_high}, {"threshold", t.timing->threshold},
                              {"floor_ms", t.timing->floor_ms},     {"copy_bytes_per_s", t.timing->copy_bytes_per_s},
                              {"harness_ms", t.timing->harness_ms}, {"unreliable", t.timing->unreliable},
                              {"unreliable_why", t.timing->unreliable_why},
                              {"empty_calls_ms", t.timing->empty_calls_ms},
                              {"student_harness_ms", t.timing->student_harness_ms},
                              {"student_claimed_ms", t.timing->student_claimed_ms},
                              {"note", t.timing->note}};
        if (t.profile)
            task["profile"] = {{"sentence", t.profile->sentence}, {"measured", measured_line(*t.profile)},
                               {"inconclusive", t.profile->inconclusive}, {"tool", t.profile->tool},
                               {"seconds", t.profile->seconds}};
        tasks.push_back(std::move(task));
    }
    return {
        {"format", "hpclab-grade-record/1"},
        {"time", now_iso()},
        {"lab", lab.id},
        {"source", c.source.string()},
        {"source_hash", fmt::format("{:016x}", keyed_hash(std::as_bytes(std::span(text)), 0))},
        {"seed", c.seed},
        {"verdict", verdict_name(c.overall)},
        {"gpu",
         {{"name", c.gpu.name},
          {"uuid", c.gpu.uuid},
          {"compute_capability", fmt::format("{}.{}", c.gpu.cc_major, c.gpu.cc_minor)},
          {"driver_cuda", c.gpu.driver_string()},
          {"other_processes", c.other_gpu_processes ? json(*c.other_gpu_processes) : json(nullptr)}}},
        {"toolchain",
         {{"nvcc", tc.nvcc.string()},
          {"nvcc_version", tc.nvcc_version},
          {"flags", tc.compile_flags(lab)},
          {"compile_command", c.build.command}}},
        {"build", {{"ok", c.build.ok}, {"cached", c.build.cached}, {"diagnostics", c.build.diagnostics}}},
        {"seconds", seconds_of_phases(c)},
        {"sanitizer_note", c.sanitizer_note},
        {"answers_note", c.answers_note},
        {"gpu_health_note", c.gpu_health_note},
        {"sandbox", sandbox_unavailable() ? "off: " + *sandbox_unavailable() : std::string("bubblewrap")},
        {"tasks", tasks},
    };
}

KeptRecord keep_grade_record(const std::string& record, const std::filesystem::path& records, const std::string& lab)
{
    const auto key = keyed_hash(std::as_bytes(std::span(record)), 0x7265636Full);
    KeptRecord kept {records / fmt::format("{}-{}-{:012x}.json", lab, now_text("%Y%m%d-%H%M%S", Zone::local),
                                           key & 0xffffffffffffull),
                     ""};
    try {
        write_file_atomically(kept.path, record + '\n');  // makes the folder too
    } catch (const std::exception& e) {
        kept.error = e.what();
    }
    return kept;
}

}  // namespace hpclab
