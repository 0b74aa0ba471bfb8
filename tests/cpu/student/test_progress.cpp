// The student's progress store (.hpclab/progress.json): what it remembers,
// how it saves, and what it does with a file it cannot read.
#include "student/progress.h"
#include "test_support.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace hpclab;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Collects the warnings instead of printing them.
struct Warnings {
    std::vector<std::string> said;
    ProgressWarning sink()
    {
        return [this](const std::string& m) { said.push_back(m); };
    }
};

}  // namespace

TEST_CASE("progress: a course without a progress file has an empty progress")
{
    TempDir root;
    Warnings w;
    Progress p = Progress::load(root.path(), w.sink());
    CHECK(p.labs().empty());
    CHECK(p.find("hello") == nullptr);
    CHECK(w.said.empty());
    CHECK(p.file() == root.path() / ".hpclab" / "progress.json");
    // Reading creates nothing.
    CHECK_FALSE(fs::exists(root.path() / ".hpclab"));

    LabProgress& hello = p.lab("hello");
    CHECK(hello.hints_shown == 0);
    CHECK_FALSE(hello.solved);
    CHECK(hello.last_verdict.empty());
    CHECK(hello.last_check.empty());
    CHECK(p.find("hello") == &hello);
}

TEST_CASE("progress: what is saved is what is loaded, in .hpclab/progress.json")
{
    TempDir root;
    {
        Progress p = Progress::load(root.path());
        p.lab("hello").hints_shown = 2;
        LabProgress& v = p.lab("vecadd0");
        v.solved = true;
        v.last_verdict = "pass";
        v.last_check = "2025-03-01T14:05:09Z";
        p.save();
    }
    REQUIRE(fs::is_regular_file(root.path() / ".hpclab" / "progress.json"));
    // Only the file: the temporary file it was written through is gone.
    CHECK(std::distance(fs::directory_iterator(root.path() / ".hpclab"), fs::directory_iterator()) == 1);

    Warnings w;
    const Progress back = Progress::load(root.path(), w.sink());
    CHECK(w.said.empty());
    REQUIRE(back.find("hello"));
    CHECK(back.find("hello")->hints_shown == 2);
    CHECK_FALSE(back.find("hello")->solved);
    REQUIRE(back.find("vecadd0"));
    CHECK(back.find("vecadd0")->solved);
    CHECK(back.find("vecadd0")->last_verdict == "pass");
    CHECK(back.find("vecadd0")->last_check == "2025-03-01T14:05:09Z");

    // A file people can read too: JSON, with a version.
    const auto j = nlohmann::json::parse(read(back.file()));
    CHECK(j.at("version") == 1);
    CHECK(j.at("labs").at("hello").at("hints_shown") == 2);
}

TEST_CASE("progress: a save replaces the file as a whole")
{
    TempDir root;
    Progress a = Progress::load(root.path());
    a.lab("hello").hints_shown = 1;
    a.save();
    Progress b = Progress::load(root.path());
    b.lab("hello").hints_shown = 3;
    b.lab("stencil").solved = true;
    b.save();
    const Progress c = Progress::load(root.path());
    CHECK(c.find("hello")->hints_shown == 3);
    CHECK(c.find("stencil")->solved);
    CHECK(c.labs().size() == 2);
}

TEST_CASE("progress: record_check keeps the verdict and the time, and solved stays solved")
{
    TempDir root;
    record_check(root.path(), "vecadd1", "wrong_answer", false);
    Progress p = Progress::load(root.path());
    REQUIRE(p.find("vecadd1"));
    CHECK(p.find("vecadd1")->last_verdict == "wrong_answer");
    CHECK_FALSE(p.find("vecadd1")->solved);
    const std::string when = p.find("vecadd1")->last_check;
    REQUIRE(when.size() == 20);  // 2025-03-01T14:05:09Z
    CHECK(when[4] == '-');
    CHECK(when[10] == 'T');
    CHECK(when.back() == 'Z');

    record_check(root.path(), "vecadd1", "pass", true);
    record_check(root.path(), "vecadd1", "too_slow", false);
    p = Progress::load(root.path());
    CHECK(p.find("vecadd1")->solved);  // a check has passed once
    CHECK(p.find("vecadd1")->last_verdict == "too_slow");

    // The hints shown are not touched by a check.
    p.lab("vecadd1").hints_shown = 2;
    p.save();
    record_check(root.path(), "vecadd1", "pass", true);
    CHECK(Progress::load(root.path()).find("vecadd1")->hints_shown == 2);
}

TEST_CASE("progress: a failing check keeps its deciding evidence, a pass clears it, and both survive a reload")
{
    TempDir root;
    const CheckEvidence race {"tiled", "race", "n=33", "racecheck reported an error at matmul.cu:44", "a barrier"};
    record_check(root.path(), "matmul", "race", false, race);
    LabProgress l = *Progress::load(root.path()).find("matmul");
    CHECK(l.last_evidence.task == "tiled");
    CHECK(l.last_evidence.verdict == "race");
    CHECK(l.last_evidence.where == "n=33");
    CHECK(l.last_evidence.message == race.message);
    CHECK(l.last_evidence.hint == "a barrier");
    CHECK(evidence_hint_due(l));
    l.evidence_shown = true;
    CHECK_FALSE(evidence_hint_due(l));  // once per check

    record_check(root.path(), "matmul", "pass", true, race);  // a pass keeps no evidence, whatever it is given
    l = *Progress::load(root.path()).find("matmul");
    CHECK(l.last_evidence.empty());
    CHECK_FALSE(evidence_hint_due(l));

    // A finding that quotes a program's bytes (not UTF-8, a megabyte of them) is kept, cut, and the save succeeds.
    const CheckEvidence noisy {"tiled", "crash", "n=33", "printed: \xff\xfe" + std::string(1 << 20, 'x'), ""};
    record_check(root.path(), "matmul", "crash", false, noisy);
    l = *Progress::load(root.path()).find("matmul");
    CHECK(l.last_verdict == "crash");
    CHECK(l.last_evidence.message.rfind("printed: \xef\xbf\xbd", 0) == 0);  // U+FFFD
    CHECK(l.last_evidence.message.size() < 5000);
}

TEST_CASE("progress: a corrupt file is kept aside, reported, and the progress starts anew")
{
    TempDir root;
    const fs::path file = root.write(".hpclab/progress.json", "{\"labs\": {\"hello\": ");
    Warnings w;
    Progress p = Progress::load(root.path(), w.sink());
    CHECK(p.labs().empty());
    REQUIRE(w.said.size() == 1);
    CHECK(test::contains(w.said[0], "progress.json is not valid progress"));
    CHECK(test::contains(w.said[0], "progress.json.corrupt"));
    const fs::path aside = root.path() / ".hpclab" / "progress.json.corrupt";
    CHECK(read(aside) == "{\"labs\": {\"hello\": ");
    CHECK_FALSE(fs::exists(file));

    // Starting anew works, and the copy stays.
    p.lab("hello").hints_shown = 1;
    p.save();
    CHECK(Progress::load(root.path()).find("hello")->hints_shown == 1);
    CHECK(read(aside) == "{\"labs\": {\"hello\": ");

    // A second corrupt file never replaces the first copy.
    root.write(".hpclab/progress.json", "not json at all");
    Warnings w2;
    CHECK(Progress::load(root.path(), w2.sink()).labs().empty());
    REQUIRE(w2.said.size() == 1);
    CHECK(read(aside) == "{\"labs\": {\"hello\": ");
    CHECK(read(root.path() / ".hpclab" / "progress.json.corrupt.2") == "not json at all");
}

TEST_CASE("progress: valid JSON with the wrong shape is corrupt too, naming the field")
{
    const char* bad[] = {
        "[1, 2]",
        "{\"labs\": []}",
        "{\"labs\": {\"hello\": 3}}",
        "{\"labs\": {\"hello\": {\"hints_shown\": \"two\"}}}",
        "{\"labs\": {\"hello\": {\"hints_shown\": -1}}}",
        "{\"labs\": {\"hello\": {\"solved\": \"yes\"}}}",
        "{\"labs\": {\"hello\": {\"last_verdict\": 7}}}",
        "{\"labs\": {\"hello\": {\"last_evidence\": 3}}}",
        "{\"labs\": {\"hello\": {\"last_evidence\": {\"task\": 3}}}}",
        "{\"labs\": {\"hello\": {\"evidence_shown\": \"yes\"}}}",
    };
    for (const char* text : bad) {
        CAPTURE(text);
        TempDir root;
        root.write(".hpclab/progress.json", text);
        Warnings w;
        CHECK(Progress::load(root.path(), w.sink()).labs().empty());
        CHECK(w.said.size() == 1);
        CHECK(fs::exists(root.path() / ".hpclab" / "progress.json.corrupt"));
    }
    TempDir root;
    root.write(".hpclab/progress.json", "{\"labs\": {\"hello\": {\"hints_shown\": \"two\"}}}");
    Warnings w;
    Progress::load(root.path(), w.sink());
    REQUIRE(w.said.size() == 1);
    CHECK(test::contains(w.said[0], "labs.hello.hints_shown"));
}

TEST_CASE("progress: fields it does not know, and labs the course lacks, are no reason to start over")
{
    TempDir root;
    root.write(".hpclab/progress.json",
               R"({"version": 1, "note": "from a newer hpclab",
                   "labs": {"gone": {"solved": true, "extra": [1]}, "hello": {}}})");
    Warnings w;
    const Progress p = Progress::load(root.path(), w.sink());
    CHECK(w.said.empty());
    REQUIRE(p.find("gone"));
    CHECK(p.find("gone")->solved);
    REQUIRE(p.find("hello"));
    CHECK(p.find("hello")->hints_shown == 0);
}
