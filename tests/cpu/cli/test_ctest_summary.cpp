// The last lines of a ctest run (tests/ctest_summary.cmake): passed, failed
// and skipped counted apart, and each reason for skipping with its count.
#include "test_support.h"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>

using namespace hpclab;
using hpclab::test::TempDir;

namespace {

std::string entry(int i, const std::string& name, bool passed)
{
    return std::to_string(i) + "/4 Testing: " + name + "\n" + std::to_string(i) + "/4 Test: " + name +
           "\nOutput:\n----\n<end of output>\nTest time =   0.01 sec\n----\n" +
           (passed ? "Test Passed.\n" : "Test Failed.\n");
}

}  // namespace

// The summary of the ctest log in `d`, as CTestCustom.cmake runs it after the tests.
ProcessResult summary_of(const TempDir& d)
{
    ProcessSpec spec;
    spec.argv = {HPCLAB_CMAKE, "-DSKIP_LOG=" + (d.path() / "skipped.txt").string(),
                 "-DTEST_LOG=" + (d.path() / "LastTest.log").string(), "-P", HPCLAB_CTEST_SUMMARY};
    return run_process(spec);
}

TEST_CASE("ctest summary: passed, failed and skipped apart, and why each skipped")
{
    const TempDir d;
    // ctest still writes LastTest.log.tmp when it runs the summary.
    d.write("LastTest.log.tmp", "Start testing\n" + entry(1, "a", true) + entry(2, "b", false) + entry(3, "c", true) +
                                    entry(4, "d", true));
    d.write("skipped.txt", "no GPU here: no driver\nno GPU here: no driver\n");
    const ProcessResult r = summary_of(d);
    INFO(r.out, r.err);
    CHECK(r.exit_code == 0);
    CHECK(test::contains(r.err, "hpclab tests: 4 ran: 1 passed, 1 failed, 2 skipped"));
    CHECK(test::contains(r.err, "  2 skipped: no GPU here: no driver"));
}

TEST_CASE("ctest summary: CMake 4's log (LastTest.log.tmp<random>), the newest when a killed run left one")
{
    const TempDir d;
    const auto stale = d.write("LastTest.log.tmp1a2b3", "Start testing\n" + entry(1, "a", false));
    std::filesystem::last_write_time(stale, std::filesystem::last_write_time(stale) - std::chrono::hours(48));
    d.write("LastTest.log.tmp9f8e7", "Start testing\n" + entry(1, "a", true) + entry(2, "b", true));
    d.write("skipped.txt", "");
    const ProcessResult r = summary_of(d);
    INFO(r.out, r.err);
    CHECK(r.exit_code == 0);
    CHECK(test::contains(r.err, "hpclab tests: 2 ran: 2 passed, 0 failed, 0 skipped"));
}

TEST_CASE("ctest summary: a test passed by its output (PASS_REGULAR_EXPRESSION) counts as passed")
{
    // ctest logs such a test with "Test Pass Reason:" where others say "Test Passed.".
    const TempDir d;
    std::string by_output = entry(2, "b", true);
    by_output.replace(by_output.find("Test Passed."), 12,
                      "Test Pass Reason:\nRequired regular expression found. Regex=[0\\.7 s]");
    d.write("LastTest.log.tmp", "Start testing\n" + entry(1, "a", true) + by_output + entry(3, "c", false));
    d.write("skipped.txt", "");
    const ProcessResult r = summary_of(d);
    INFO(r.out, r.err);
    CHECK(test::contains(r.err, "hpclab tests: 3 ran: 2 passed, 1 failed, 0 skipped"));
}
