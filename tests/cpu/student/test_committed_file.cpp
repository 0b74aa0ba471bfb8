// The committed version of a file, read back from git.
#include "student/committed_file.h"
#include "process/process.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;

namespace {
bool git(const test::TempDir& dir, std::vector<std::string> args)
{
    ProcessSpec spec;
    spec.argv = {"/usr/bin/env", "git", "-C", dir.path().string(), "-c", "user.email=t@t", "-c", "user.name=t"};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    return run_process(spec).exit_code == 0;
}
}  // namespace

TEST_CASE("committed file: the content at HEAD, whatever the working copy holds")
{
    test::TempDir dir;
    REQUIRE(git(dir, {"init", "-q"}));
    dir.write("labs/x/x.cu", "skeleton\n");
    REQUIRE(git(dir, {"add", "-A"}));
    REQUIRE(git(dir, {"commit", "-qm", "x"}));
    dir.write("labs/x/x.cu", "my solution\n");
    CHECK(committed_content(dir.path(), "labs/x/x.cu") == std::optional<std::string>("skeleton\n"));
    CHECK_FALSE(committed_content(dir.path(), "labs/x/untracked.cu"));
}

TEST_CASE("committed file: nothing outside a git checkout")
{
    test::TempDir dir;
    dir.write("a.cu", "x");
    CHECK_FALSE(committed_content(dir.path(), "a.cu"));
}
