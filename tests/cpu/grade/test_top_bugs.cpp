// The class's top bugs in report.md: failing files grouped by their evidence
// (verdict, the message's first lines with the numbers hidden, a slow file's
// profiler sentence), groups of two students or more, the largest first,
// names and messages escaped.
#include "grade/class_report.h"
#include "grade/gradebook.h"
#include "grade/top_bugs.h"
#include "one_task_class.h"
#include "util/escape.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::OneTaskClass;

namespace {

// A class of vecadd3 files that failed as given: each file's verdict and message.
OneTaskClass failing_class(const std::vector<std::pair<Verdict, std::string>>& given)
{
    std::vector<TaskResult> add;
    for (const auto& [verdict, message] : given) add.push_back({.verdict = verdict, .message = message});
    return OneTaskClass(add);
}

std::string memcheck_at(int line, int thread, int block)
{
    return fmt::format("Invalid __global__ write of size 4 bytes\n    at vec_add(const int *, const int *, int *, int)+0x{:x} in "
                       "vecadd3.cu:{}\n    by thread ({},0,0) in block ({},0,0)",
                       line * 16, line, thread, block);
}

}  // namespace

TEST_CASE("top bugs: the same mistake at other lines, elements and threads is one group, another is another")
{
    const OneTaskClass c = failing_class({{Verdict::memcheck, memcheck_at(23, 96, 1)},
                          {Verdict::memcheck, memcheck_at(31, 5, 4095)},
                          {Verdict::memcheck, memcheck_at(19, 100, 2)},
                          {Verdict::wrong_answer, "c[1024] is 0 where 77 was expected"},
                          {Verdict::wrong_answer, "c[0] is 12 where 7 was expected"},
                          {Verdict::wrong_answer, "the sum is 3 where 9 was expected"},  // alone: not listed
                          {Verdict::pass, ""}});
    const auto groups = top_bugs(c.book);
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].students.size() == 3);  // the largest first
    CHECK(groups[0].signature == "memcheck: Invalid __global__ write of size # bytes / at vec_add(const int *, const "
                                 "int *, int *, int)+# in vecadd#.cu:#");
    CHECK(groups[0].students == std::vector<std::string> {"s00", "s01", "s02"});
    CHECK(groups[1].students == std::vector<std::string> {"s03", "s04"});
    CHECK(groups[1].signature == "wrong_answer: c[#] is # where # was expected");
    // A memcheck write and read, or another kernel, are other mistakes.
    TaskResult read {.verdict = Verdict::memcheck, .message = "Invalid __global__ read of size 4 bytes\n    at vec_add(...)"};
    TaskResult other {.verdict = Verdict::memcheck, .message = "Invalid __global__ write of size 4 bytes\n    at my_kernel(...)"};
    TaskResult write {.verdict = Verdict::memcheck, .message = "Invalid __global__ write of size 4 bytes\n    at vec_add(...)"};
    CHECK(evidence_signature(read) != evidence_signature(write));
    CHECK(evidence_signature(other) != evidence_signature(write));
    // Two too-slow files are one mistake when the profiler measured the same cause, at any number.
    TaskResult lanes {.verdict = Verdict::too_slow, .message = "0.01x tuned.cu (0.01..0.01; needs 0.50x)",
                      .profile = "your warps run 1 of their 32 lanes on average"};
    TaskResult lanes2 = lanes;
    lanes2.message = "0.02x tuned.cu (0.02..0.03; needs 0.50x)";
    lanes2.profile = "your warps run 2 of their 32 lanes on average";
    TaskResult busy = lanes;
    busy.profile = "the GPU's multiprocessors had work 0.76% of the kernel's time";
    CHECK(evidence_signature(lanes) == evidence_signature(lanes2));
    CHECK(evidence_signature(lanes) != evidence_signature(busy));

    const std::string md = top_bugs_markdown(c.book);
    CHECK(contains(md, "| vecadd3.add | 3 | memcheck | Invalid \\_\\_global\\_\\_ write of size 4 bytes"));
    CHECK(contains(md, "(s00) | s00, s01, s02 |"));
    CHECK(contains(md, "| vecadd3.add | 2 | wrong_answer | c\\[1024\\] is 0 where 77 was expected (s03) | s03, s04 |"));
    CHECK_FALSE(contains(md, "the sum is"));
    CHECK(contains(class_report_markdown(c.cls, c.book, c.results), "## Top bugs"));
}

TEST_CASE("top bugs: a class without shared mistakes says so, and a long message is cut whole characters at a time")
{
    const OneTaskClass lone = failing_class({{Verdict::wrong_answer, "c[3] is 1 where 2 was expected"}, {Verdict::pass, ""}});
    CHECK(top_bugs(lone.book).empty());
    CHECK(contains(top_bugs_markdown(lone.book), "No two failing files of a task share their evidence."));

    const std::string long_message = std::string(239, 'x') + "\xc3\xa9" + std::string(50, 'y');  // é across the cut
    const OneTaskClass wordy = failing_class({{Verdict::wrong_answer, long_message}, {Verdict::wrong_answer, long_message}});
    const std::string md = top_bugs_markdown(wordy.book);
    CHECK(first_non_utf8(md) == std::string::npos);
    CHECK(contains(md, std::string(239, 'x') + "..."));
}
