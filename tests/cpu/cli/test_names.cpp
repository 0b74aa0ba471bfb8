// CTest keeps lists separated by ';': a test name with one is split in two
// by doctest_discover_tests and runs as two broken tests. The test sources
// are read here to keep such names out.
#include "test_support.h"

#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>

TEST_CASE("tests: no test name contains a semicolon")
{
    const std::regex name("TEST_CASE\\(\"([^\"]*)\"");
    int seen = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(hpclab::test::course_root() / "tests" / "cpu")) {
        if (entry.path().extension() != ".cpp") continue;
        std::ifstream in(entry.path());
        std::ostringstream s;
        s << in.rdbuf();
        const std::string text = s.str();
        for (auto it = std::sregex_iterator(text.begin(), text.end(), name); it != std::sregex_iterator(); ++it) {
            ++seen;
            CAPTURE(entry.path().filename().string());
            CHECK((*it)[1].str().find(';') == std::string::npos);
        }
    }
    CHECK(seen > 50);
}
