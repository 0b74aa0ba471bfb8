// compute-sanitizer's word is its own log and its exit status, not what the
// program prints: a report lost in a flood still counts, and a stall or an
// ended tool under it is a finding.
#include "check/evidence.h"
#include "run/sanitizer.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace hpclab;

namespace {

SanitizerRun run_with(int exit_code, std::string log, RunStatus status = RunStatus::completed, int signal = 0)
{
    SanitizerRun s;
    s.tool = "memcheck";
    s.size = SizeCase {{{"n", 1000}}, "", false};
    s.report.status = status;
    s.report.process.started = true;
    s.report.process.exit_code = exit_code;
    s.report.process.signal = signal;
    s.report.process.timed_out = status == RunStatus::timed_out;
    s.report.process.out = "========= ERROR SUMMARY: 0 errors\n";  // printed by the program: not the tool's
    s.report.tool_log = std::move(log);
    s.findings = parse_sanitizer_output(s.report.tool_log, "/c", "vecadd3.cu");
    return s;
}

}  // namespace

TEST_CASE("sanitizer trust: the tool's exit status counts when its report is missing")
{
    const auto f = findings_of_sanitizer(run_with(kSanitizerErrorExit, ""));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == Verdict::memcheck);
    CHECK(f[0].message.find("lost") != std::string::npos);
    CHECK(findings_of_sanitizer(run_with(0, "========= ERROR SUMMARY: 0 errors\n")).empty());
}

TEST_CASE("sanitizer trust: a stall under the tool is a time limit, an ended tool a crash")
{
    auto f = findings_of_sanitizer(run_with(-1, "", RunStatus::timed_out));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == Verdict::time_limit);
    CHECK(f[0].message.find("under compute-sanitizer memcheck") != std::string::npos);
    f = findings_of_sanitizer(run_with(-1, "", RunStatus::crashed, 9));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == Verdict::crash);
}

TEST_CASE("sanitizer trust: each run's log lives in a private folder, read back and then removed")
{
    std::filesystem::path dir;
    {
        const ToolLog log;
        dir = log.dir();
        CHECK(std::filesystem::is_directory(dir));
        std::ofstream(log.file()) << "========= Invalid __global__ read of size 4\n";
        CHECK(log.read().find("Invalid __global__ read") != std::string::npos);
        const auto cmd = sanitizer_command("/cs", "memcheck", log.file());
        CHECK(std::find(cmd.begin(), cmd.end(), log.file().string()) != cmd.end());
    }
    CHECK_FALSE(std::filesystem::exists(dir));
}

TEST_CASE("sanitizer trust: a run under the tool must end with proof it ran (issue 27, item 4)")
{
    const std::string summary = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n";
    // Ended with status 0 before its calls were done: it runs them only when not watched.
    auto f = findings_of_sanitizer(run_with(0, summary, RunStatus::ended_early));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == Verdict::tampering);
    CHECK(f[0].message.find("before its calls were done") != std::string::npos);
    // Finished, but the tool's summary is gone from its log.
    f = findings_of_sanitizer(run_with(0, "", RunStatus::completed));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == Verdict::tampering);
    CHECK(f[0].message.find("report is missing") != std::string::npos);
    // Ended early otherwise, the tool finding nothing: a crash, never a pass.
    f = findings_of_sanitizer(run_with(3, summary, RunStatus::ended_early));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == Verdict::crash);
    // Ended early with the tool's findings: its report explains the end.
    f = findings_of_sanitizer(run_with(kSanitizerErrorExit,
                                       "========= Invalid __global__ read of size 4 bytes\n"
                                       "=========     at add(const int *, const int *, int *, int)+0x70 in "
                                       "/c/labs/vecadd3/vecadd3.cu:12\n========= ERROR SUMMARY: 1 error\n",
                                       RunStatus::gpu_fault));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == Verdict::memcheck);
}

TEST_CASE("sanitizer trust: racecheck's summary counts as the tool's, and an early end the plain runs share is theirs")
{
    auto racecheck = run_with(0, "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n");
    racecheck.tool = "racecheck";
    CHECK(findings_of_sanitizer(racecheck).empty());
    // exit(0) in the entry point: the plain runs ended early too, and say so (a crash there).
    auto early = run_with(0, "========= ERROR SUMMARY: 0 errors\n", RunStatus::ended_early);
    early.plain_runs_finished = false;
    CHECK(findings_of_sanitizer(early).empty());
}
