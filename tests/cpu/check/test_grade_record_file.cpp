// Where a check's record is kept (keep_grade_record): in the records folder,
// made if missing, named by its lab, its time and its content, whole.
#include "check/grade_record.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

using namespace hpclab;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

TEST_CASE("grade record: two records of one lab in the same second are two files, each whole")
{
    const TempDir dir;
    const fs::path records = dir.path() / "state" / "records";
    const fs::path a = keep_grade_record(R"({"file": "a.cu"})", records, "matmul").path;
    const fs::path b = keep_grade_record(R"({"file": "b.cu"})", records, "matmul").path;
    CHECK(a != b);
    CHECK(a.parent_path() == records);
    CHECK(a.filename().string().rfind("matmul-", 0) == 0);
    CHECK(a.extension() == ".json");
    std::stringstream text;
    text << std::ifstream(b).rdbuf();
    CHECK(text.str() == "{\"file\": \"b.cu\"}\n");
    // Nothing else is left beside them (no partial file).
    CHECK(std::distance(fs::directory_iterator(records), fs::directory_iterator {}) == 2);
}

TEST_CASE("grade record: a records folder that cannot be made says why, and keeps nothing")
{
    const TempDir dir;
    const fs::path not_a_folder = dir.write("state", "a file where the state folder should be");
    const KeptRecord kept = keep_grade_record("{}", not_a_folder / "records", "matmul");
    CHECK_FALSE(kept.error.empty());
    CHECK_FALSE(fs::exists(kept.path));
}

TEST_CASE("check phases: declared once, in the order they run, each timed one's seconds in the record under its key")
{
    std::set<std::string_view> names, keys;
    for (std::size_t i = 0; i < std::size(kCheckPhases); ++i) {
        const CheckPhaseInfo& p = kCheckPhases[i];
        CAPTURE(p.name);
        CHECK(static_cast<std::size_t>(p.id) == i);
        CHECK(&check_phase(p.id) == &p);
        CHECK(names.insert(p.name).second);
        CHECK(!p.waits_for.empty());
        CHECK((p.seconds == nullptr) == p.key.empty());
        if (!p.key.empty()) CHECK(keys.insert(p.key).second);
    }
    LabCheck c {.lab = &hpclab::test::lab_of("vecadd1")};
    c.compile_s = 1.5;
    c.run_s = 2;
    c.sanitizer_s = 3;
    c.timing_s = 4;
    c.profile_s = 0.5;
    c.total_s = 11;
    const nlohmann::json seconds = grade_record(c, Toolchain {})["seconds"];
    CHECK(seconds == nlohmann::json {{"compile", 1.5}, {"runs", 2.0}, {"sanitizer", 3.0}, {"timing", 4.0},
                                         {"profile", 0.5}, {"total", 11.0}});
}
