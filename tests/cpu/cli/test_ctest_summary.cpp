// The last lines of a ctest run (tests/ctest_summary.cmake): passed, failed
// and skipped counted apart, and each reason for skipping with its count.
#include "test_support.h"

#include <doctest/doctest.h>

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

TEST_CASE("ctest summary: passed, failed and skipped apart, and why each skipped")
{
    const TempDir d;
    // ctest still writes LastTest.log.tmp when it runs the summary.
    d.write("LastTest.log.tmp", "Start testing\n" + entry(1, "a", true) + entry(2, "b", false) + entry(3, "c", true) +
                                    entry(4, "d", true));
    d.write("skipped.txt", "no GPU here: no driver\nno GPU here: no driver\n");
    ProcessSpec spec;
    spec.argv = {HPCLAB_CMAKE, "-DSKIP_LOG=" + (d.path() / "skipped.txt").string(),
                 "-DTEST_LOG=" + (d.path() / "LastTest.log").string(), "-P", HPCLAB_CTEST_SUMMARY};
    const ProcessResult r = run_process(spec);
    INFO(r.out, r.err);
    CHECK(r.exit_code == 0);
    CHECK(test::contains(r.err, "hpclab tests: 4 ran: 1 passed, 1 failed, 2 skipped"));
    CHECK(test::contains(r.err, "  2 skipped: no GPU here: no driver"));
}
