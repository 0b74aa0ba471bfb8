// The program lab (kind "program"): the format its skeleton fixes, read by
// course/program_output; the GPU's table as hpclab builds it from the
// driver's numbers; and the judgement of printed lines against hpclab's own
// observations, with the lab's broken files' mistakes and made-up numbers.
#include "check/program_check.h"
#include "check/program_judge.h"
#include "course/lab_catalog.h"
#include "course/program_output.h"
#include "gpu/device_properties.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

using namespace hpclab;
using namespace hpclab::test;

std::string read_file(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// An H100's numbers, as its driver gives them.
RawDeviceNumbers h100()
{
    RawDeviceNumbers raw;
    raw.name = "NVIDIA H100 80GB HBM3";
    raw.cc_major = 9;
    raw.cc_minor = 0;
    raw.global_bytes = 85017755648ull;
    raw.multiprocessors = 132;
    raw.warp_size = 32;
    raw.shared_per_block = 49152;
    raw.constant_bytes = 65536;
    raw.max_threads_per_block = 1024;
    raw.block_dims[0] = 1024, raw.block_dims[1] = 1024, raw.block_dims[2] = 64;
    raw.grid_dims[0] = 2147483647, raw.grid_dims[1] = 65535, raw.grid_dims[2] = 65535;
    return raw;
}

// What the solution prints on that H100 (the skeleton's formats), with the
// times given.
std::string solution_output(const std::string& launch, const std::string& sync, const std::string& events,
                            const std::string& threads_per_block = "1024")
{
    return "Device name: NVIDIA H100 80GB HBM3\n"
           "CUDA capability: 9.0\n"
           "Global memory: 81079 MB\n"
           "Multiprocessors: 132\n"
           "Warp size: 32\n"
           "Shared memory per block: 49152 B\n"
           "Constant memory: 65536 B\n"
           "Max number of threads per block: " + threads_per_block + "\n"
           "Max size of a thread block: (1024, 1024, 64)\n"
           "Max grid size: (2147483647, 65535, 65535)\n"
           "Time without synchronization: " + launch + " s\n"
           "Time with cudaDeviceSynchronize: " + sync + " s\n"
           "Time with CUDA events: " + events + " ms\n"
           "Throughput: 17043.2 Gflops\n";
}

// hpclab's own timing: an 8 ms kernel, a 5 us launch.
const KernelTimes kMeasured {.events_s = 0.0080, .sync_s = 0.0081, .launch_s = 0.000005};

// What the solution's object calls (nm), the parts the judgement looks at.
const std::set<std::string> kSolutionCalls = {"cudaGetDeviceProperties", "cudaEventRecord", "cudaEventElapsedTime",
                                              "clock_gettime", "cudaDeviceSynchronize", "__cudaLaunchKernel"};

ProgramJudgement judge(const std::string& printed, const std::set<std::string>& calls = kSolutionCalls)
{
    return judge_program(read_program_output(printed), property_values(h100()),
                         kMeasured, catalog().find("program")->program, calls);
}

}  // namespace

TEST_CASE("program lab: a lab of the kind program, with its rules")
{
    const LabInfo* lab = catalog().find("program");
    REQUIRE(lab);
    CHECK(lab->kind == LabKind::program);
    CHECK(lab->program.kernel_header == lab->header);
    CHECK(std::filesystem::is_regular_file(lab->lab_dir / lab->program.kernel_header));
    CHECK(lab->program.time_factor > 1);
    CHECK(lab->program.launch_fraction < 1);
    for (const auto& other : catalog().labs())
        if (other.id != "program") CHECK(other.kind == LabKind::functions);
}

TEST_CASE("lab kinds: each kind has its row, found by its name, and a program is built, run and timed whole")
{
    for (const LabKind kind : {LabKind::functions, LabKind::program}) {
        const LabKindTraits& k = lab_kind_traits(kind);
        CHECK(k.kind == kind);
        CHECK(lab_kind_named(k.name) == kind);
        CHECK_FALSE(k.student_writes.empty());
    }
    CHECK_FALSE(lab_kind_named("Program"));
    const LabKindTraits& program = lab_kind_traits(LabKind::program);
    CHECK_FALSE(program.harness_linked);    // linked alone: main is the student's
    CHECK_FALSE(program.tasks_at_sizes);    // one run, judged by what it prints
    CHECK_FALSE(program.baseline_program);  // hpclab times the lab's kernel itself
    const LabKindTraits& functions = lab_kind_traits(LabKind::functions);
    CHECK((functions.harness_linked && functions.tasks_at_sizes && functions.baseline_program));
}

TEST_CASE("program lab: the skeleton and the solution print every line hpclab reads, in its format")
{
    const LabInfo& lab = *catalog().find("program");
    for (const auto& file : {lab.student_source(), lab.solution_source()}) {
        CAPTURE(file);
        const std::string text = read_file(file);
        for (const auto& label : property_labels()) CHECK(text.find("printf(\"" + label + ": ") != std::string::npos);
        for (const auto label : {kTimeLaunchLabel, kTimeSyncLabel, kTimeEventsLabel})
            CHECK(text.find("printf(\"" + std::string(label) + ": ") != std::string::npos);
    }
}

TEST_CASE("program output: the lines read, the others left alone")
{
    const ProgramOutput out = read_program_output("hello\n  Warp size:   32 \nTime with CUDA events: 8.125 ms\n"
                                                  "Time with cudaDeviceSynchronize: 0.008200 s\nWarp size 32\n");
    CHECK(out.properties.at("Warp size") == "32");
    CHECK(out.properties.size() == 1);
    REQUIRE(out.events);
    CHECK(out.events->seconds == doctest::Approx(0.008125));
    REQUIRE(out.sync);
    CHECK(out.sync->seconds == doctest::Approx(0.0082));
    CHECK_FALSE(out.launch);
    CHECK(out.unreadable.empty());
}

TEST_CASE("program output: a time without a unit, a label twice, are unreadable, not guessed")
{
    const ProgramOutput out = read_program_output("Time with CUDA events: 8.1\nWarp size: 32\nWarp size: 64\n"
                                                  "Time without synchronization: 1e-5 s\n");
    CHECK_FALSE(out.events);
    CHECK(out.unreadable.size() == 2);
    CHECK(out.properties.at("Warp size") == "32");
    REQUIRE(out.launch);
    CHECK(out.launch->seconds == doctest::Approx(1e-5));
    CHECK_FALSE(seconds_of("8 us"));
    CHECK_FALSE(seconds_of("nan s"));
    CHECK_FALSE(seconds_of("8,1 ms"));
}

TEST_CASE("device properties: slide 76's table from the driver's numbers, as the skeleton prints it")
{
    const auto values = property_values(h100());
    CHECK(values.size() == property_labels().size());
    CHECK(values.at("CUDA capability") == "9.0");
    CHECK(values.at("Global memory") == "81079 MB");
    CHECK(values.at("Max size of a thread block") == "(1024, 1024, 64)");
    CHECK(values.at("Max grid size") == "(2147483647, 65535, 65535)");
    CHECK(values.at("Shared memory per block") == "49152 B");
}

TEST_CASE("program judgement: the solution's output passes")
{
    const ProgramJudgement j = judge(solution_output("0.000006", "0.008214", "8.051"));
    CHECK(j.verdict == Verdict::pass);
    CHECK(j.problems.empty());
    for (const auto& line : j.lines) CHECK_MESSAGE(line.ok, line.label);
}

TEST_CASE("program judgement: each classic mistake of the broken set")
{
    SUBCASE("no_sync: the launch's time printed as the kernel's")
    {
        const ProgramJudgement j = judge(solution_output("0.000006", "0.000011", "8.051"));
        CHECK(j.verdict == Verdict::wrong_answer);
        REQUIRE(j.problems.size() == 1);
        CHECK(j.problems[0].find("Time with cudaDeviceSynchronize: 0.000011 s") == 0);
    }
    SUBCASE("check_error_in_launch_time: the launch's time is the kernel's")
    {
        const ProgramJudgement j = judge(solution_output("0.008101", "0.008214", "8.051"));
        CHECK(j.verdict == Verdict::wrong_answer);
        REQUIRE(j.problems.size() == 1);
        CHECK(j.problems[0].find("a launch returns at once") != std::string::npos);
    }
    SUBCASE("wrong_field: a property from another field")
    {
        const ProgramJudgement j = judge(solution_output("0.000006", "0.008214", "8.051", "2048"));
        CHECK(j.verdict == Verdict::wrong_answer);
        REQUIRE(j.problems.size() == 1);
        CHECK(j.problems[0] == "Max number of threads per block: 2048, but this GPU says 1024 (hpclab's own query of "
                               "the driver)");
    }
    SUBCASE("events_in_seconds: a thousand times too small")
    {
        const ProgramJudgement j = judge(solution_output("0.000006", "0.008214", "0.008"));
        CHECK(j.verdict == Verdict::wrong_answer);
        CHECK(j.problems.size() == 1);
    }
    SUBCASE("a time far above the kernel's")
    {
        const ProgramJudgement j = judge(solution_output("0.000006", "0.080000", "8.051"));
        CHECK(j.verdict == Verdict::wrong_answer);
        CHECK(j.problems.size() == 1);
    }
    SUBCASE("the skeleton: zeros everywhere")
    {
        const ProgramJudgement j = judge("Device name: \nCUDA capability: 0.0\nTime without synchronization: 0.000000 s\n"
                                         "Time with cudaDeviceSynchronize: 0.000000 s\nTime with CUDA events: 0.000 ms\n",
                                         {"cudaDeviceSynchronize", "__cudaLaunchKernel"});
        CHECK(j.verdict == Verdict::wrong_answer);  // not an accusation: nothing it printed is right
    }
    SUBCASE("lines not printed")
    {
        const ProgramJudgement j = judge("Time with CUDA events: 8.051 ms\n");
        CHECK(j.verdict == Verdict::wrong_answer);
        CHECK(j.problems.front().find("did not print the line \"Device name: ...\"") != std::string::npos);
    }
}

TEST_CASE("program judgement: right numbers the program cannot have measured are held for a person")
{
    const std::string right = solution_output("0.000006", "0.008214", "8.051");
    SUBCASE("the properties typed in: no query in the object")
    {
        const ProgramJudgement j = judge(right, {"cudaEventRecord", "cudaEventElapsedTime", "clock_gettime"});
        CHECK(j.verdict == Verdict::tampering);
        REQUIRE(j.problems.size() == 1);
        CHECK(j.problems[0].find("the properties") != std::string::npos);
    }
    SUBCASE("an event time with no cudaEventElapsedTime")
    {
        const ProgramJudgement j = judge(right, {"cudaGetDeviceProperties", "clock_gettime"});
        CHECK(j.verdict == Verdict::tampering);
    }
    SUBCASE("host times read with a clock hpclab has no name for: judged on the numbers alone")
    {
        // omp_get_wtime, clock(), the time-stamp counter (__rdtsc: no symbol at all)...
        CHECK(judge(right, {"cudaGetDeviceProperties_v2", "cudaEventElapsedTime"}).verdict == Verdict::pass);
        CHECK(judge(right, {"cudaGetDeviceProperties", "cudaEventElapsedTime", "omp_get_wtime"}).verdict ==
              Verdict::pass);
    }
    SUBCASE("an honest, unusual program: the attributes one by one, std::chrono for the clock")
    {
        const ProgramJudgement j = judge(right, {"cudaDeviceGetAttribute", "cudaGetDeviceProperties_v2",
                                                 "cudaEventElapsedTime_v2", "_ZNSt6chrono3_V212steady_clock3nowEv"});
        CHECK(j.verdict == Verdict::pass);
    }
}

TEST_CASE("program judgement: a launch takes time: a printed time below a tenth of hpclab's, past the digits, is wrong")
{
    // hpclab measured a 5 us launch: with six decimals of a second, 0 is what
    // a 0.4 us launch prints too, and passes.
    CHECK(judge(solution_output("0.000000", "0.008214", "8.051")).verdict == Verdict::pass);
    const KernelTimes slow_launch {.events_s = 0.0080, .sync_s = 0.0081, .launch_s = 0.000050};
    const auto judged = [&](const std::string& launch) {
        return judge_program(read_program_output(solution_output(launch, "0.008214", "8.051")), property_values(h100()),
                             slow_launch, catalog().find("program")->program, kSolutionCalls);
    };
    CHECK(judged("0.000040").verdict == Verdict::pass);
    const ProgramJudgement zero = judged("0.000000");
    CHECK(zero.verdict == Verdict::wrong_answer);
    REQUIRE_FALSE(zero.problems.empty());
    CHECK(zero.problems.front().find("a launch takes time") != std::string::npos);
}

TEST_CASE("catalog: a program lab's rules are checked")
{
    const auto dir = std::filesystem::temp_directory_path() / "hpclab-program-lab-json" / "labs" / "p";
    std::filesystem::create_directories(dir);
    std::string json = read_file(catalog().find("program")->lab_dir / "lab.json");
    const auto id = json.find("\"id\": \"program\"");
    REQUIRE(id != std::string::npos);
    json.replace(id, 15, "\"id\": \"p\"");
    const auto factor = json.find("\"time_factor\": 1.5");
    REQUIRE(factor != std::string::npos);
    std::ofstream(dir / "lab.json") << json.substr(0, factor) + "\"time_factor\": 0.5" + json.substr(factor + 18);
    const auto root = dir.parent_path().parent_path();
    CHECK_THROWS_WITH_AS(Catalog::load_lab(root, dir / "lab.json"), doctest::Contains("time_factor"), CatalogError);
    std::filesystem::remove_all(root);
}

TEST_CASE("program lab: its check reads as every lab's: a verdict per task, why, its compile time, the program's own")
{
    const LabInfo& lab = *catalog().find("program");
    ProgramCheck pc;
    pc.lab = &lab;
    pc.verdict = Verdict::wrong_answer;
    pc.build.ok = true;
    pc.build.seconds = 1.5;
    pc.judgement = ProgramJudgement {};
    pc.judgement->problems = {"the SM count printed is 100; the GPU has 132"};
    pc.total_s = 3;
    const LabCheck c = as_lab_check(pc, GpuInfo {}, 7);
    CHECK(c.overall == Verdict::wrong_answer);
    REQUIRE(c.tasks.size() == lab.tasks.size());
    for (const TaskCheck& t : c.tasks) {
        CHECK(t.verdict.verdict == Verdict::wrong_answer);
        CHECK(t.verdict.reason.message.find("the SM count printed is 100") != std::string::npos);
    }
    CHECK(c.compile_s == 1.5);
    CHECK(c.total_s == 3);
    REQUIRE(c.whole_program);  // what it printed, for the view
    CHECK(c.whole_program->judgement->problems.size() == 1);
}
