// Every lab's metadata is complete and agrees with the lab's files and spec:
// what the CLI, the runner and the docs read is what the labs contain.
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace hpclab;
using hpclab::test::catalog;

namespace {

std::string read(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::uint64_t largest_buffer_bytes(const TaskSpec& spec, const Params& p)
{
    std::uint64_t m = 0;
    for (const auto& b : spec.buffers(p)) m = std::max(m, b.bytes());
    return m;
}

// The numbers of a skeleton's TODO steps, or of a solution's numbered step
// comments ("/* 3: ...", " * 3: ...", " * - 3: ..."), each once.
std::set<int> step_numbers(const std::string& text, const std::regex& step)
{
    std::set<int> steps;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), step); it != std::sregex_iterator(); ++it)
        steps.insert(std::stoi((*it)[1]));
    return steps;
}

}  // namespace

TEST_CASE("labs: the labs of the course, in course order")
{
    std::vector<std::string> ids;
    for (const auto& lab : catalog().labs()) ids.push_back(lab.id);
    const std::vector<std::string> course = {"hello",   "vecadd0", "vecadd1",   "vecadd2", "vecadd3",
                                             "stencil", "program", "symbols", "reduction", "warpreduce", "matmul", "rotation", "aos_soa", "streams", "histogram", "scan", "diagnose"};
    CHECK(ids == course);
    for (std::size_t i = 0; i < catalog().labs().size(); ++i) CHECK(catalog().labs()[i].order == int(i) + 1);
}

TEST_CASE("labs: every lab's files exist")
{
    for (const auto& lab : catalog().labs()) {
        CAPTURE(lab.id);
        CHECK(std::filesystem::is_regular_file(lab.student_source()));
        CHECK(std::filesystem::is_regular_file(lab.lab_dir / lab.header));
        CHECK(std::filesystem::is_regular_file(lab.solution_source()));
        CHECK(std::filesystem::is_regular_file(lab.doc));
        if (!lab.image.empty()) CHECK(std::filesystem::is_regular_file(lab.lab_dir / lab.image));
        CHECK(read(lab.doc).find("hpclab run " + lab.id) != std::string::npos);
    }
}

TEST_CASE("labs: every task has a spec compiled in, and every spec a task")
{
    std::set<std::pair<std::string, std::string>> from_metadata;
    for (const auto& lab : catalog().labs())
        for (const auto& t : lab.tasks) {
            if (lab.kind == LabKind::program) continue;  // the student's program is the whole check: no spec
            from_metadata.insert({lab.id, t.id});
            CHECK_MESSAGE(find_task_spec(lab.id, t.id) != nullptr, lab.id, "/", t.id, " has no spec");
        }
    // The lab made of data alone (tests/cpu/course/test_data_lab.cpp) registers its spec in the tests.
    const Catalog data_lab = Catalog::load(test::test_data() / "datalab");
    for (const auto& lab : data_lab.labs())
        for (const auto& t : lab.tasks) from_metadata.insert(std::make_pair(lab.id, t.id));
    for (const auto& key : registered_task_specs())
        CHECK_MESSAGE(from_metadata.count(key) == 1, key.first, "/", key.second, " is not in any lab.json");
}

TEST_CASE("labs: the header declares every entry point, and skeleton and solution define it")
{
    for (const auto& lab : catalog().labs()) {
        const std::string header = read(lab.lab_dir / lab.header);
        const std::string skeleton = read(lab.student_source());
        const std::string solution = read(lab.solution_source());
        for (const auto& t : lab.tasks) {
            if (lab.kind == LabKind::program) break;  // its entry is main, the program's own; the header is the kernel
            CAPTURE(lab.id);
            CAPTURE(t.entry);
            const std::regex call("\\b" + t.entry + "\\s*\\(");
            CHECK(std::regex_search(header, call));
            CHECK(std::regex_search(skeleton, call));
            CHECK(std::regex_search(solution, call));
        }
        CHECK(skeleton.find("#include \"" + lab.header + "\"") != std::string::npos);
        CHECK(solution.find("#include \"" + lab.header + "\"") != std::string::npos);
        CHECK(skeleton.find("#include \"hpc.h\"") != std::string::npos);
    }
}

TEST_CASE("labs: skeletons have numbered TODO steps, solutions have none")
{
    const std::regex todo("TODO ([0-9]+)");
    for (const auto& lab : catalog().labs()) {
        CAPTURE(lab.id);
        const std::set<int> steps = step_numbers(read(lab.student_source()), todo);
        REQUIRE_FALSE(steps.empty());
        CHECK(*steps.begin() == 1);
        CHECK(*steps.rbegin() == int(steps.size()));  // 1, 2, ..., k: none missing
        CHECK(read(lab.solution_source()).find("TODO") == std::string::npos);
    }
}

TEST_CASE("labs: a solution that numbers its steps numbers them as its skeleton's TODOs")
{
    // Exercises and solutions mirror each other: step 3 of the solution is
    // TODO 3 of the skeleton (warpreduce's solution once counted a given
    // helper as step 1, one ahead of every TODO after it).
    const std::regex todo("TODO ([0-9]+)");
    const std::regex step(R"((?:/\*|^[ \t]*\*(?: -)?)[ \t]*([0-9]+):)", std::regex::multiline);
    int numbered = 0;
    for (const auto& lab : catalog().labs()) {
        CAPTURE(lab.id);
        const std::set<int> steps = step_numbers(read(lab.solution_source()), step);
        if (steps.empty()) continue;
        ++numbered;
        CHECK(steps == step_numbers(read(lab.student_source()), todo));
    }
    CHECK(numbered >= 7);  // the check looks at something: seven solutions number their steps
}

TEST_CASE("labs: a calibrated threshold's note names the results files it was measured in, and they exist")
{
    const std::regex named(R"(([\w.-]+\.(?:txt|json)))");
    for (const auto& lab : catalog().labs())
        for (const auto& task : lab.tasks) {
            if (!task.threshold || !task.threshold->calibrated) continue;
            CAPTURE(lab.id);
            CAPTURE(task.id);
            const std::string& note = task.threshold->note;
            std::set<std::string> files;
            for (auto it = std::sregex_iterator(note.begin(), note.end(), named); it != std::sregex_iterator(); ++it)
                files.insert((*it)[1].str());
            CHECK_FALSE(files.empty());
            for (const std::string& f : files) {
                CAPTURE(f);
                CHECK(std::filesystem::exists(test::course_root() / "docs" / "results" / f));
            }
        }
}

TEST_CASE("labs: every kernel of a solution says why it is fast or slow")
{
    for (const auto& lab : catalog().labs()) {
        // A program lab's kernel is given, in its kernel header: there it says why.
        std::istringstream in(read((lab.kind == LabKind::program) ? lab.lab_dir / lab.program.kernel_header : lab.solution_source()));
        std::string line, previous;
        int kernels = 0;
        while (std::getline(in, line)) {
            if (line.find("__global__") != std::string::npos) {
                ++kernels;
                CAPTURE(lab.id);
                CAPTURE(line);
                // The kernel's comment paragraph ends on the line just above it.
                const bool commented = previous.find("*/") != std::string::npos || previous.rfind("//", 0) == 0;
                CHECK(commented);
            }
            if (!line.empty()) previous = line;
        }
        CHECK_MESSAGE(kernels > 0, lab.id, " has no kernel");
    }
}

TEST_CASE("labs: hints go from gentle to explicit")
{
    for (const auto& lab : catalog().labs()) {
        CAPTURE(lab.id);
        CHECK(lab.hints.size() >= 3);
        // The explicit one is the longest, or close: it nearly gives the code.
        std::size_t longest = 0;
        for (const auto& h : lab.hints) longest = std::max(longest, h.size());
        CHECK(lab.hints.back().size() * 2 >= longest);
        CHECK(lab.hints.front().size() <= longest);
    }
}

TEST_CASE("labs: sizes cover the lesson's edges")
{
    for (const auto& lab : catalog().labs()) {
        CAPTURE(lab.id);
        if (lab.params.empty()) continue;
        bool smallest = false, ragged = false, non_square = lab.find_param("width") == nullptr;
        for (const auto& t : lab.tasks)
            for (const auto& s : t.sizes) {
                for (const auto& [name, value] : s.params) {
                    if (value == 1) smallest = true;
                    if (value > 32 && value % 32 != 0) ragged = true;
                }
                if (s.params.count("width") && s.params.at("width") != s.params.at("height")) non_square = true;
            }
        CHECK_MESSAGE(smallest, "no size with a parameter at 1");
        CHECK_MESSAGE(ragged, "no size that is not a multiple of a block or tile");
        CHECK_MESSAGE(non_square, "no non-square image");
    }
}

TEST_CASE("labs: the big size of every device task passes 2^31 bytes, and no other size does")
{
    constexpr std::uint64_t k2G = 1ull << 31;
    for (const auto& lab : catalog().labs()) {
        if (lab.kind == LabKind::program) continue;  // no buffers of hpclab's: the program allocates its own
        for (const auto& t : lab.tasks) {
            CAPTURE(lab.id);
            CAPTURE(t.id);
            const TaskSpec* spec = find_task_spec(lab.id, t.id);
            REQUIRE(spec);
            int big = 0;
            for (const auto& s : t.sizes) {
                const bool past = largest_buffer_bytes(*spec, s.params) > k2G;
                CHECK_MESSAGE(past == s.big, format_params(s.params));
                big += s.big;
            }
            if (lab.pointers == "device") CHECK(big == 1);
            CHECK(largest_buffer_bytes(*spec, t.demo) < 4 * k2G);
        }
    }
}
