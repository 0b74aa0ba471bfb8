// common/hpc.h, in real programs run as child processes: the clock, and the
// failure path of the CUDA checks (message with file, line, expression,
// error name and text; exit status 99), and NO_CUDA_CHECK_ERROR.
#include "process/process.h"

#include <doctest/doctest.h>

#include <string>

using namespace hpclab;

namespace {
ProcessResult probe(const std::string& exe, std::vector<std::string> args)
{
    ProcessSpec spec;
    spec.argv = {exe};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.set_env = {{"CUDA_VISIBLE_DEVICES", ""}};  // the same on every machine
    return run_process(spec);
}
}  // namespace

TEST_CASE("hpc.h: hpc_gettime in a C program of two files")
{
    const ProcessResult r = probe(HPCLAB_HPC_H_PROBE_C, {});
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("elapsed 0.0", 0) == 0);
}

// The CUDA half of hpc.h exists only where nvcc does: these tests are
// compiled in only then (never reported as passed without running).
#if defined(HPCLAB_HPC_H_PROBE)
TEST_CASE("hpc.h: hpc_gettime in a CUDA program of several files")
{
    const ProcessResult r = probe(HPCLAB_HPC_H_PROBE, {"gettime"});
    CHECK(r.exit_code == 0);
}

TEST_CASE("hpc.h: a failing cudaSafeCall names file, line, expression and error, and exits 99")
{
    const ProcessResult r = probe(HPCLAB_HPC_H_PROBE, {"safe-call-fail"});
    CHECK(r.exited());
    CHECK(r.exit_code == 99);
    CHECK(r.out.find("not reached") == std::string::npos);
    CHECK(r.err.find("probe_main.cu:") != std::string::npos);
    CHECK(r.err.find("cudaSafeCall() failed") != std::string::npos);
    CHECK(r.err.find("    cudaErrorMemoryAllocation\n") != std::string::npos);       // the expression
    CHECK(r.err.find("CUDA error 2 cudaErrorMemoryAllocation: out of memory") != std::string::npos);
}

TEST_CASE("hpc.h: NO_CUDA_CHECK_ERROR turns the checks off")
{
    const ProcessResult r = probe(HPCLAB_HPC_H_PROBE, {"unchecked"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "survived\n");
}
#endif
