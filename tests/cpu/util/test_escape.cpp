// One escaping function per destination (util/escape.h): a name holding
// terminal escapes, line breaks, Markdown, CSV, XML or bytes that are not
// UTF-8 shows as typed, visibly escaped, and acts on nothing; a CMake
// argument reads back as it was.
#include "util/escape.h"
#include "process/process.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>

using namespace hpclab;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// Whether `s` holds a byte below 0x20 (other than those allowed) or DEL.
bool has_control(const std::string& s, const std::string& allowed = "")
{
    for (const char c : s)
        if ((static_cast<unsigned char>(c) < 0x20 || c == 0x7f) && allowed.find(c) == std::string::npos) return true;
    return false;
}

// A name as a hostile or unlucky file system hands it over.
const std::string kNasty = "a\x1b[2J\x1b[32mall passed\x1b[0m\nb\r\t`x`|y|*z*_<b>&\xff\xc3(\x9b\xc2\x9b\xe2\x80\xaeok";

}  // namespace

TEST_CASE("escape: the terminal gets no control character, no invalid UTF-8, and sees where each was")
{
    const std::string t = for_terminal(kNasty);
    CHECK_FALSE(has_control(t));
    CHECK(first_non_utf8(t) == std::string::npos);
    CHECK(has(t, "\\x1b[2J"));
    CHECK(has(t, "\\n"));
    CHECK(has(t, "\\r"));
    CHECK(has(t, "\\t"));
    CHECK(has(t, "\\xff"));                      // a lone byte that is not UTF-8
    CHECK(has(t, "\\xc3("));                     // a lead byte without its continuation
    CHECK(has(t, "\\x9b"));                      // a C1 CSI as one raw byte
    CHECK(has(t, "\\u{009b}"));                  // and as a UTF-8 character
    CHECK(has(t, "\\u{202e}"));                  // right-to-left override
    CHECK(has(t, "`x`|y|*z*_<b>&"));             // printable text stays as typed
    CHECK(for_terminal("ada/vecadd3.cu é") == "ada/vecadd3.cu é");
}

TEST_CASE("escape: Markdown gets no line break, no code span, no table cell, no markup")
{
    const std::string m = for_markdown(kNasty);
    CHECK_FALSE(has_control(m));
    CHECK(first_non_utf8(m) == std::string::npos);
    CHECK(has(m, "\\`x\\`"));
    CHECK(has(m, "\\|y\\|"));
    CHECK(has(m, "\\*z\\*\\_\\<b\\>\\&"));
    // Every | and ` is escaped: nothing can end a table cell or open a code span.
    for (std::size_t i = 0; i < m.size(); ++i)
        if (m[i] == '|' || m[i] == '`') CHECK(m[i - 1] == '\\');
    CHECK(for_markdown("# graded, pass") == "\\# graded, pass");

    const std::string block = markdown_code_block("error at x\n```\n# not a heading\x1b[2J\n");
    CHECK(block.rfind("````\n", 0) == 0);  // a fence longer than the text's own
    CHECK(has(block, "\n```\n# not a heading\\x1b[2J\n````\n"));
    CHECK_FALSE(has_control(block, "\n"));
}

TEST_CASE("escape: CSV cells hpclab writes show escapes and never run as formulas, and JSON and SVG are valid")
{
    CHECK(for_csv("=HYPERLINK(\"x\")") == "'=HYPERLINK(\"x\")");
    CHECK(for_csv("+1") == "'+1");
    CHECK(for_csv("@x") == "'@x");
    CHECK(for_csv("-x") == "'-x");
    CHECK(for_csv("-1.5") == "-1.5");  // a negative number stays a number
    CHECK(for_csv("a\nb\x1b") == "a\\nb\\x1b");
    CHECK_FALSE(has_control(for_csv(kNasty)));

    const std::string j = for_json(kNasty);
    CHECK(first_non_utf8(j) == std::string::npos);
    CHECK(has(j, "\\xff"));
    CHECK_NOTHROW((void)nlohmann::json(j).dump());  // nlohmann refuses invalid UTF-8: this is valid
    CHECK(nlohmann::json::parse(nlohmann::json(j).dump()).get<std::string>() == j);

    const std::string s = for_svg(kNasty + "\"'");
    CHECK_FALSE(has_control(s));
    CHECK(first_non_utf8(s) == std::string::npos);
    CHECK(has(s, "&lt;b&gt;&amp;"));
    CHECK(has(s, "&quot;'"));  // ' needs no entity inside double quotes
    CHECK_FALSE(has(s, "<b>"));
}

TEST_CASE("escape: a CMake quoted argument reads back as the text it was made from")
{
    const hpclab::test::TempDir d;
    const std::string text = "a \"path\" with ${HOME} and $ENV{USER}, \\ and\nlines";
    const auto out = d.path() / "out.txt";
    d.write("read.cmake", "set(x \"" + for_cmake(text) + "\")\nfile(WRITE \"" + for_cmake(out.string()) + "\" \"${x}\")\n");
    ProcessSpec spec;
    spec.argv = {HPCLAB_CMAKE, "-P", (d.path() / "read.cmake").string()};
    CHECK(run_process(spec).exit_code == 0);
    CHECK(read_text_file(out).value_or("") == text);
}
