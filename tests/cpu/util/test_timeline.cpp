// HPCLAB_TIMELINE (util/timeline.h): a file for one process, or a folder in
// which each process writes its own, named by its pid, that starts with its
// command line and its start on the wall clock (scripts/test-timelines.py
// reads a test run's folder of them).
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <regex>

using namespace hpclab;
using hpclab::test::run_hpclab;
using hpclab::test::TempDir;

TEST_CASE("timeline: a folder gets a file per process, its command line and start first, its exit last")
{
    const TempDir dir;
    const std::string folder = dir.path().string() + "/";
    for (int i = 0; i < 2; ++i) CHECK(run_hpclab({"verdicts"}, true, 120, {{"HPCLAB_TIMELINE", folder}}).exit_code == 0);
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        ++files;
        CHECK(std::regex_match(entry.path().filename().string(), std::regex("hpclab-[0-9]+-[0-9]+\\.txt")));
        const std::string text = read_text_file(entry.path()).value_or("");
        CAPTURE(text);
        CHECK(std::regex_search(text, std::regex("^# started [0-9]{10}\\.[0-9]{6} argv \\S*hpclab verdicts \\n")));
        CHECK(std::regex_search(text, std::regex("\\n *[0-9.]+ +[0-9.]+ hpclab: the process to its exit\\n$")));
    }
    CHECK(files == 2);
}

TEST_CASE("timeline: a file name keeps every process's lines in that one file, with no header")
{
    const TempDir dir;
    const auto file = dir.path() / "timeline.txt";
    for (int i = 0; i < 2; ++i) run_hpclab({"verdicts"}, true, 120, {{"HPCLAB_TIMELINE", file.string()}});
    const std::string text = read_text_file(file).value_or("");
    CHECK(text.find("# started") == std::string::npos);
    CHECK(std::regex_search(text, std::regex("hpclab: the process to its exit\\n[^\\n]*hpclab: the process to its exit\\n$")));
}
