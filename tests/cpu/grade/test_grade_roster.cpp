// Rosters as LMSs and spreadsheets write them (UTF-8 with or without a
// byte-order mark, UTF-16 with one, ',' ';' or tab between fields, quoted
// fields with commas and line breaks, Canvas's "Points Possible" row), a
// printable message naming the encoding or separator otherwise, and a
// gradebook whose roster cells go back to the LMS byte for byte.
#include "intake/class_folder.h"
#include "grade/gradebook.h"
#include "intake/roster.h"
#include "test_support.h"
#include "util/csv.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::catalog;
using hpclab::test::contains;
using hpclab::test::TempDir;
namespace fs = std::filesystem;

namespace {

// The same roster, as a spreadsheet saves it with `sep` between fields.
std::string roster_text(const std::string& sep)
{
    return "Student" + sep + "ID" + sep + "SIS Login ID" + sep + "Section\r\n" +  //
           "    Points Possible" + sep + sep + sep + "\r\n" +                       //
           "\"Lovelace, Ada\"" + sep + "101" + sep + "ada@uni.edu" + sep + "\"A\nfirst floor\"\r\n" +
           "\"B\xC3\xA9nard; Cy\"" + sep + "+1@x" + sep + "cy" + sep + "B\r\n";
}

std::string utf16(const std::string& ascii_or_utf8, bool big_endian)
{
    // Enough for the roster: ASCII and the two-byte é.
    std::string out = big_endian ? "\xFE\xFF" : "\xFF\xFE";
    for (std::size_t i = 0; i < ascii_or_utf8.size(); ++i) {
        unsigned cp = static_cast<unsigned char>(ascii_or_utf8[i]);
        if (cp == 0xC3) cp = 0xC0 | (static_cast<unsigned char>(ascii_or_utf8[++i]) & 0x3F);
        const char hi = static_cast<char>(cp >> 8), lo = static_cast<char>(cp & 0xFF);
        out += big_endian ? std::string {hi, lo} : std::string {lo, hi};
    }
    return out;
}

void check_roster(const Roster& r)
{
    REQUIRE(r.header == CsvRow {"Student", "ID", "SIS Login ID", "Section"});
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0] == CsvRow {"Lovelace, Ada", "101", "ada@uni.edu", "A\nfirst floor"});
    CHECK(r.rows[1] == CsvRow {"B\xC3\xA9nard; Cy", "+1@x", "cy", "B"});
    REQUIRE(r.points_possible);
    CHECK(r.points_possible->front() == "    Points Possible");
}

}  // namespace

TEST_CASE("grade roster: UTF-8 with or without a mark, UTF-16 LE and BE, comma, semicolon and tab all read the same")
{
    const TempDir d;
    for (const std::string sep : {",", ";", "\t"}) {
        CAPTURE(sep);
        check_roster(read_roster(d.write("plain.csv", roster_text(sep)), {}));
        check_roster(read_roster(d.write("bom.csv", "\xEF\xBB\xBF" + roster_text(sep)), {}));
        check_roster(read_roster(d.write("le.csv", utf16(roster_text(sep), false)), {}));
        check_roster(read_roster(d.write("be.csv", utf16(roster_text(sep), true)), {}));
    }
}

TEST_CASE("grade roster: what cannot be read is said printably, naming the encoding or the separator")
{
    const TempDir d;
    std::string no_mark;  // UTF-16 LE without its mark: NUL bytes everywhere
    for (char c : std::string("ID,Name\n1,a\n")) no_mark += {c, '\0'};
    const auto message = [&](const std::string& name, const std::string& bytes) {
        try {
            read_roster(d.write(name, bytes), {});
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("(read)");
    };
    const std::string nul = message("nul.csv", no_mark);
    CHECK(contains(nul, "UTF-16 without a byte-order mark"));
    CHECK(nul.find('\0') == std::string::npos);
    CHECK(contains(message("latin1.csv", "ID,Name\n1,B\xE9nard\n"), "not UTF-8 (byte 0xe9"));
    const std::string pipes = message("pipes.csv", "ID|Name\n1|a\n");
    CHECK(contains(pipes, "read as separated by ','"));
    CHECK(contains(pipes, "save it with ',', ';' or tabs"));
    CHECK(contains(message("esc.csv", "Na\x1b[2Jme,Mark\nx,1\n"), "Na\\x1b[2Jme"));
}

TEST_CASE("grade roster: the gradebook re-imports into the LMS: every roster cell byte for byte, ids included")
{
    const TempDir d;
    d.write("class/ada/vecadd3.cu", "// ada, by her email\n");
    d.write("class/+1@x/hello.cu", "// Cy, by the id\n");
    d.write("class/zed/hello.cu", "// in no row\n");
    const ClassFolder c = discover_class(d.path() / "class", catalog());
    const fs::path file = d.write("roster.csv", "\xEF\xBB\xBF" + roster_text(";") + "\"=Evil()\";=2+3;-x;@y\r\n");
    const Roster roster = read_roster(file, {"SIS Login ID", "ID"});
    CHECK(roster.rows.size() == 3);
    const RosterMatch match = match_roster(roster, {"+1@x", "ada", "zed"});
    CHECK(match.row_of.size() == 2);
    GradingConfig config;
    const Gradebook book = make_gradebook(c, {}, catalog(), config);
    const std::vector<CsvRow> back = parse_csv(gradebook_csv(book, &roster, &match));

    // As an LMS imports it: the header, then a row per roster row, found by its id column.
    REQUIRE(back.size() >= 5);
    CHECK(CsvRow(back[0].begin(), back[0].begin() + 4) == roster.header);
    CHECK(CsvRow(back[1].begin(), back[1].begin() + 4) == CsvRow {"    Points Possible", "", "", ""});
    for (const CsvRow& original : roster.rows) {
        const auto row = std::find_if(back.begin(), back.end(), [&](const CsvRow& r) { return r.at(1) == original.at(1); });
        REQUIRE(row != back.end());
        CHECK(CsvRow(row->begin(), row->begin() + 4) == original);  // "+1@x" stays "+1@x", "=2+3" stays "=2+3"
    }
    // The row of "+1@x" has that student's marks; the student no row names keeps a row, below.
    const auto plus = std::find_if(back.begin(), back.end(), [](const CsvRow& r) { return r.at(1) == "+1@x"; });
    CHECK(plus->at(4) == "+1@x");
    CHECK(contains(back.back().back(), "not in the roster"));
    CHECK(back.back().at(4) == "zed");
}
