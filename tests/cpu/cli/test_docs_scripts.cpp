// The docs' measured figures that are no benchmark row, each found in the
// file of docs/results/ that a named script wrote (test_docs.cpp checks the
// benchmark's): the shared-load counts the matmul walkthroughs quote are
// what scripts/shared-loads.sh counts in the compiled kernels
// (shared-loads-sm90.txt), each quoted as <!-- loads: <file> -->1.25<!-- /loads -->,
// none written by hand; where the CUDA Toolkit's cuobjdump is installed the
// script runs again and must print the kept output. The grading wall times
// of docs/instructors.md are scripts/gpu-suite.sh's (grading-h100.txt).
#include "process/process.h"
#include "run/toolchain.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace hpclab;
namespace fs = std::filesystem;

namespace {

const fs::path kKept = "docs/results/shared-loads-sm90.txt";

// "solutions/matmul/matmul.cu" -> "1.25", from the script's lines
// "<file> <kernel>: 1.25 shared loads per multiply-add".
std::map<std::string, std::string> kept_counts()
{
    std::map<std::string, std::string> out;
    std::istringstream lines(read_text_file(test::course_root() / kKept).value_or(""));
    static const std::regex line_re(R"(^(\S+) \S+: (\d+\.\d+) shared loads per multiply-add$)");
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        // The naive kernels read no shared memory (0.00): the pages quote each file's tiled kernel.
        if (std::regex_match(line, m, line_re) && m[2].str() != "0.00") out[m[1].str()] = m[2].str();
    }
    return out;
}

}  // namespace

TEST_CASE("docs: the shared-load counts quoted are scripts/shared-loads.sh's, and none is written by hand")
{
    const auto counts = kept_counts();
    REQUIRE_MESSAGE(counts.size() >= 2, kKept.string() << ": no counts (run scripts/shared-loads.sh " << kKept.string() << ")");
    static const std::regex quoted(R"(<!-- loads: (\S+) -->([^<]*)<!-- /loads -->)");
    static const std::regex by_hand(R"(\d(\.\d+)? shared loads? per multiply-add)");
    int found = 0;
    for (const auto& e : fs::directory_iterator(test::course_root() / "docs")) {
        if (e.path().extension() != ".md") continue;
        CAPTURE(e.path().filename().string());
        const std::string doc = read_text_file(e.path()).value_or("");
        for (std::sregex_iterator it(doc.begin(), doc.end(), quoted), end; it != end; ++it, ++found) {
            const std::string file = (*it)[1].str(), text = (*it)[2].str();
            REQUIRE_MESSAGE(counts.count(file), file << " is not counted in " << kKept.string());
            CHECK_MESSAGE(text == counts.at(file), file << ": the page says " << text << ", the script "
                                                        << counts.at(file));
        }
        const std::string prose = std::regex_replace(doc, quoted, "");
        CHECK_MESSAGE(!std::regex_search(prose, by_hand), "a count of shared loads not quoted from " << kKept.string());
    }
    CHECK(found >= 4);  // matmul.md and matmul-further.md, the solution's and the tuned kernel's
}

TEST_CASE("docs: scripts/shared-loads.sh still counts what docs/results/shared-loads-sm90.txt keeps")
{
    const Toolchain tc = Toolchain::configured();
    if (!tc.available() || !fs::exists(tc.nvcc.parent_path() / "cuobjdump")) {
        MESSAGE("no nvcc with its cuobjdump here: the counts are not made again");
        return;
    }
    const test::TempDir d;
    ProcessSpec script;
    script.argv = {"/usr/bin/env", "bash", (test::course_root() / "scripts" / "shared-loads.sh").string(),
                   (d.path() / "counts.txt").string()};
    script.set_env = {{"NVCC", tc.nvcc.string()}};
    script.wall_limit_s = 300;
    const ProcessResult r = run_process(script);
    INFO(r.err);
    REQUIRE(r.exited());
    REQUIRE(r.exit_code == 0);
    CHECK_MESSAGE(read_text_file(d.path() / "counts.txt") == read_text_file(test::course_root() / kKept),
                  "the compiled kernels changed: scripts/shared-loads.sh " << kKept.string()
                                                                           << ", and the pages that quote it");
}

TEST_CASE("docs: the grading wall times docs/instructors.md quotes are in docs/results/grading-*.txt and class-time-*.txt")
{
    std::set<long> kept;
    static const std::regex wall(R"( wall_s=(\d+)$)");
    for (const char* results :
         {"docs/results/grading-h100.txt", "docs/results/grading-big-h200.txt", "docs/results/class-time-h200.txt"}) {
        std::istringstream lines(read_text_file(test::course_root() / results).value_or(""));
        for (std::string line; std::getline(lines, line);)
            if (std::smatch m; std::regex_search(line, m, wall)) kept.insert(std::stol(m[1].str()));
    }
    REQUIRE(kept.size() >= 5);
    // A minute or more: a grading's wall time (shorter ones are settings, "30 s at most", or other scripts').
    const std::string page = read_text_file(test::course_root() / "docs/instructors.md").value_or("");
    static const std::regex quoted(R"((?:(\d+) min )?(\d+) s\b)");
    int found = 0;
    for (std::sregex_iterator it(page.begin(), page.end(), quoted), end; it != end; ++it) {
        const long seconds = ((*it)[1].matched ? 60 * std::stol((*it)[1].str()) : 0) + std::stol((*it)[2].str());
        if (seconds < 60) continue;
        ++found;
        CHECK_MESSAGE(kept.count(seconds), "docs/instructors.md: '" << (*it).str()
                                                                   << "' is no wall time of docs/results/grading-*.txt or class-time-*.txt");
    }
    CHECK(found >= 3);
}

TEST_CASE("docs: the harness's cost per timed call in how-hpclab-checks.md is docs/results/handshake-h100.txt's table")
{
    const std::string doc = read_text_file(test::course_root() / "docs" / "how-hpclab-checks.md").value_or("");
    const std::string kept = read_text_file(test::course_root() / "docs" / "results" / "handshake-h100.txt").value_or("");
    std::string table;
    std::istringstream lines(kept);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("|", 0) == 0) table += line + '\n';
    REQUIRE(table.size() > 0);
    const auto begin = doc.find("<!-- handshake:begin");
    const auto end = doc.find("<!-- handshake:end -->");
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    const auto body = doc.find('\n', begin) + 1;
    CHECK_MESSAGE(doc.substr(body, end - body) == table,
                  "paste the table of docs/results/handshake-h100.txt between the handshake markers");
}
