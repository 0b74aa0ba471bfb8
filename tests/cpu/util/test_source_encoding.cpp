// Honest files always build: whatever editor saved them. Each way a correct
// file may be saved is either compiled as it is, or refused with a message
// that names its encoding.
#include "util/source_encoding.h"

#include "run/toolchain.h"
#include "test_support.h"
#include "util/text.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

using namespace hpclab;

namespace {

const std::string kBom = "\xEF\xBB\xBF";
const std::string kKernel = "__global__ void add(const int *a, const int *b, int *c) { *c = *a + *b; }\n";

// ASCII text as UTF-16 or UTF-32 writes it, BOM first.
std::string widened(const std::string& ascii, int width, bool little_endian)
{
    std::string out;
    for (char ch : ascii)
        for (int k = 0; k < width; ++k) out += (little_endian ? k == 0 : k == width - 1) ? ch : '\0';
    return out;
}

}  // namespace

TEST_CASE("source encoding: a UTF-8 BOM is dropped, and nothing else of the file changes")
{
    const std::string windows = replace_all(kKernel + "// done\n", "\n", "\r\n");
    const CompilableSource s = compilable_source(kBom + windows, "vecadd3.cu");
    REQUIRE(s.ok());
    CHECK(s.text == windows);  // CRLF kept: nvcc reads it, and the lines stay where the student sees them
}

TEST_CASE("source encoding: CRLF, tabs, a line continuation and non-ASCII comments are compiled as they are")
{
    const std::string crlf = replace_all(kKernel, "\n", "\r\n");
    const std::string tabs = "__global__ void add(int *c)\n{\n\t*c = 1;\n}\n";
    const std::string continuation = "#define SUM(x, y) \\\r\n    ((x) + (y))\n" + kKernel;
    const std::string utf8_comment = "// addition de deux vecteurs \xC3\xA9t\xC3\xA9 \xE2\x80\x94 \xE4\xB8\xAD\xE6\x96\x87\n" + kKernel;
    const std::string latin1_comment = "/* \xE9t\xE9 (Latin-1) */\n" + kKernel;
    for (const std::string& text : {crlf, tabs, continuation, utf8_comment, latin1_comment}) {
        CAPTURE(text);
        CHECK(unreadable_encoding(text).empty());
        const CompilableSource s = compilable_source(text, "vecadd3.cu");
        CHECK(s.ok());
        CHECK(s.text == text);
    }
}

TEST_CASE("source encoding: UTF-16 and UTF-32 are refused, naming the encoding, with or without a BOM")
{
    struct Case {
        std::string bytes;
        std::string encoding;
    };
    const std::string text = "// vecadd3\n" + kKernel;
    const Case cases[] = {
        {"\xFF\xFE" + widened(text, 2, true), "UTF-16 (little-endian)"},
        {"\xFE\xFF" + widened(text, 2, false), "UTF-16 (big-endian)"},
        {widened(text, 2, true), "UTF-16 (little-endian)"},
        {widened(text, 2, false), "UTF-16 (big-endian)"},
        {std::string("\xFF\xFE\0\0", 4) + widened(text, 4, true), "UTF-32 (little-endian)"},
        {std::string("\0\0\xFE\xFF", 4) + widened(text, 4, false), "UTF-32 (big-endian)"},
        {widened(text, 4, true), "UTF-32 (little-endian)"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.encoding);
        CHECK(unreadable_encoding(c.bytes) == c.encoding);
        const CompilableSource s = compilable_source(c.bytes, "vecadd3.cu");
        CHECK_FALSE(s.ok());
        CHECK(s.text.empty());
        CHECK(s.refusal.find("vecadd3.cu is saved as " + c.encoding) != std::string::npos);
        CHECK(s.refusal.find("save it as UTF-8") != std::string::npos);
    }
}

TEST_CASE("source encoding: a stray NUL byte in a UTF-8 file is no encoding (nvcc tells what it makes of it)")
{
    const std::string text = kKernel + std::string("// a stray \0 byte\n", 18);
    CHECK(unreadable_encoding(text).empty());
    CHECK(compilable_source(text, "vecadd3.cu").ok());
}

// Needs nvcc (not a GPU): compiled in only where the build has it.
#if defined(HPCLAB_HPC_H_PROBE)
namespace {

BuildResult build_text(const std::string& text)
{
    const LabInfo& lab = test::lab_of("vecadd3");
    const test::TempDir dir;
    Toolchain tc = Toolchain::configured();
    tc.cache_dir = dir.path() / "cache";
    return build_lab_program(tc, lab, dir.write("vecadd3.cu", text), "student");
}

}  // namespace

TEST_CASE("source encoding: the correct vecadd3 saved on Windows (UTF-8 BOM, CRLF) builds")
{
    const std::string solution = read_text_file(test::lab_of("vecadd3").solution_source()).value();
    const BuildResult r = build_text(kBom + replace_all(solution, "\n", "\r\n"));
    CHECK_MESSAGE(r.ok, r.diagnostics);
}

TEST_CASE("source encoding: the correct vecadd3 with tabs, a continued macro and non-ASCII comments builds")
{
    const std::string solution = read_text_file(test::lab_of("vecadd3").solution_source()).value();
    const std::string text = "// Vektoraddition \xE2\x80\x94 \xC3\xA9t\xC3\xA9, \xE4\xB8\xAD\xE6\x96\x87\n"
                             "/* Latin-1: \xE9t\xE9 */\n#define UNUSED_SUM(x, y) \\\n\t((x) + (y))\n" +
                             replace_all(solution, "    ", "\t");
    const BuildResult r = build_text(text);
    CHECK_MESSAGE(r.ok, r.diagnostics);
}

TEST_CASE("source encoding: the correct vecadd3 saved as UTF-16 is refused by name, before nvcc, as the student's")
{
    const std::string solution = read_text_file(test::lab_of("vecadd3").solution_source()).value();
    const BuildResult r = build_text("\xFF\xFE" + widened(solution, 2, true));
    CHECK_FALSE(r.ok);
    CHECK_FALSE(r.setup_problem);
    CHECK(r.diagnostics.find("vecadd3.cu is saved as UTF-16 (little-endian)") != std::string::npos);
}
#endif

TEST_CASE("source names: a file in a folder named with a quote, a backslash or a newline builds, and its messages name it")
{
    const LabInfo& lab = test::lab_of("vecadd3");
    const std::string solution = read_text_file(lab.solution_source()).value();
    const test::TempDir dir;
    Toolchain tc = Toolchain::configured();
    tc.cache_dir = dir.path() / "cache";
    // ptxas refuses a line table whose file name holds a quote: the #line of the compile must not carry one.
    const auto odd = dir.write("O\"Brien \\ new\nline/vecadd3.cu", solution);
    const BuildResult r = build_lab_program(tc, lab, odd, "student");
    CHECK_MESSAGE(r.ok, r.diagnostics);
    CHECK(r.facts.origins_known);
    CHECK(r.facts.foreign_kernels.empty());
    // A compile error names the file as it is.
    const auto broken = dir.write("O\"Brien \\ new\nline/broken/vecadd3.cu", replace_all(solution, "c[index] =", "c[index] = undeclared +"));
    const BuildResult e = build_lab_program(tc, lab, broken, "student");
    REQUIRE_FALSE(e.ok);
    CHECK_MESSAGE(e.diagnostics.find(broken.string()) != std::string::npos, e.diagnostics);
}
