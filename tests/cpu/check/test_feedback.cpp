// The advice a verdict comes with (check/feedback.h).
#include "check/feedback.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::lab_of;

namespace {
bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }
}  // namespace

TEST_CASE("feedback: the table's advice, or the lab's own words, and the way to a hint")
{
    const LabInfo& lab = lab_of("vecadd3");
    TaskVerdict v {.task = "add", .verdict = Verdict::race};
    CHECK(has(likely_bug(lab, v), std::string(verdict_info(Verdict::race).advice)));
    CHECK(has(likely_bug(lab, v), "hpclab hint vecadd3"));
    v.verdict = Verdict::grader_error;
    CHECK_FALSE(has(likely_bug(lab, v), "hpclab hint"));  // not the student's to fix
}

TEST_CASE("feedback: a memory fault the student's cudaCheckError caught is no launch configuration")
{
    const LabInfo& lab = lab_of("vecadd3");
    TaskVerdict v {.task = "add", .verdict = Verdict::cuda_error};
    v.reason.message = "CUDA error at vecadd3.cu:41: cudaErrorIllegalAddress (an illegal memory access was encountered)";
    const std::string advice = likely_bug(lab, v);
    CHECK(has(advice, std::string(verdict_info(Verdict::gpu_fault).advice)));
    CHECK_FALSE(has(advice, "invalid launch configuration"));
    // With memcheck's report of the same task, the place comes first.
    v.also.push_back({Verdict::memcheck, "Invalid __global__ write of size 4 at add+0x90 in labs/vecadd3/vecadd3.cu:33\nmore", "",
                      "n=1000"});
    const std::string located = likely_bug(lab, v);
    CHECK(located.rfind("compute-sanitizer's memcheck found where: Invalid __global__ write of size 4 at add+0x90 in "
                        "labs/vecadd3/vecadd3.cu:33 (at n=1000).",
                        0) == 0);
}
