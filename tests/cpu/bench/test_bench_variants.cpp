// Benchmark variants: the one line a variant file carries near its top, the
// files of a folder found and ordered, and every mistake in them named with
// the file (and line) before anything is built.
#include "bench/variants.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::lab_of;
using hpclab::test::TempDir;

namespace {

// The message of the BenchInputError that parsing `fields` throws, or "".
std::string parse_error(const std::string& fields)
{
    try {
        parse_variant_fields(fields, "x.cu:1");
    } catch (const BenchInputError& e) {
        return e.what();
    }
    return "";
}

// The message reading a file with `content`, as a variant of `lab`, throws.
std::string file_error(const std::string& lab, const std::string& name, const std::string& content)
{
    TempDir dir;
    const auto file = dir.write(name, content);
    try {
        read_variant_file(file, name, lab_of(lab));
    } catch (const BenchInputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("bench variants: a complete line gives every field")
{
    const BenchVariant v =
        parse_variant_fields(R"( kind=library tasks=naive,tiled title="cuBLAS SGEMM, fp32" link=cublas,cublasLt)", "x");
    CHECK(v.kind == VariantKind::library);
    CHECK(v.tasks == std::vector<std::string> {"naive", "tiled"});
    CHECK(v.title == "cuBLAS SGEMM, fp32");
    CHECK(v.link == std::vector<std::string> {"cublas", "cublasLt"});
    CHECK(v.covers("tiled"));
    CHECK_FALSE(v.covers("other"));
}

TEST_CASE("bench variants: fields in any order, a bare title, no link")
{
    const BenchVariant v = parse_variant_fields("title=short\ttasks=add   kind=naive", "x");
    CHECK(v.kind == VariantKind::naive);
    CHECK(v.tasks == std::vector<std::string> {"add"});
    CHECK(v.title == "short");
    CHECK(v.link.empty());
}

TEST_CASE("bench variants: every kind by name, in table order")
{
    for (const char* k : {"limit", "naive", "course", "reference", "further", "library"}) {
        CAPTURE(k);
        const auto kind = kind_from_name(k);
        REQUIRE(kind);
        CHECK(kind_name(*kind) == k);
    }
    CHECK(kind_rank("limit") < kind_rank("naive"));  // the copy heads every table
    CHECK(kind_rank("naive") < kind_rank("course"));
    CHECK(kind_rank("course") < kind_rank("reference"));
    CHECK(kind_rank("reference") < kind_rank("further"));
    CHECK(kind_rank("further") < kind_rank("library"));
    CHECK(kind_rank("library") < kind_rank("unknown"));
}

TEST_CASE("bench variants: each mistake in the line is named")
{
    CHECK(contains(parse_error(R"(tasks=add title="t")"), "x.cu:1: kind is missing"));
    CHECK(contains(parse_error(R"(kind=naive title="t")"), "tasks is missing"));
    CHECK(contains(parse_error("kind=naive tasks=add"), "title is missing"));
    CHECK(contains(parse_error(R"(kind=fast tasks=add title="t")"), "unknown kind 'fast'"));
    CHECK(contains(parse_error(R"(kind=fast tasks=add title="t")"), "naive, course, reference, further, library"));
    CHECK(contains(parse_error(R"(kind=naive tasks=add title="t" speed=9)"), "unknown field 'speed'"));
    CHECK(contains(parse_error(R"(kind=naive kind=course tasks=add title="t")"), "kind is given twice"));
    CHECK(contains(parse_error(R"(kind=naive tasks=add title="unterminated)"), "closing quote is missing"));
    CHECK(contains(parse_error(R"(kind=naive tasks=add title="")"), "title is empty"));
    CHECK(contains(parse_error(R"(kind=naive tasks=add,,tiled title="t")"), "tasks=add,,tiled"));
    CHECK(contains(parse_error(R"(kind=naive tasks=add,add title="t")"), "lists 'add' twice"));
    CHECK(contains(parse_error(R"(kind=naive tasks=add title="t" link=-lcublas)"), "link=-lcublas"));
    CHECK(contains(parse_error(R"(kind naive)"), "expected key=value"));
    CHECK(contains(parse_error(""), "kind is missing"));
}

TEST_CASE("bench variants: a file's line is found near its top, once")
{
    TempDir dir;
    const auto file = dir.write("wide.cu", "// A wider block.\n\n  // hpclab-bench: kind=further tasks=add title=\"wide\"\n"
                                           "void vecadd(const int*, const int*, int*, int) {}\n");
    const BenchVariant v = read_variant_file(file, "wide.cu", lab_of("vecadd3"));
    CHECK(v.id == "wide");
    CHECK(v.source == file);
    CHECK(v.kind == VariantKind::further);

    CHECK(contains(file_error("vecadd3", "plain.cu", "__global__ void k() {}\n"),
                   "plain.cu: no '// hpclab-bench:' line"));
    CHECK(contains(file_error("vecadd3", "two.cu",
                              "// hpclab-bench: kind=naive tasks=add title=\"a\"\n"
                              "// hpclab-bench: kind=naive tasks=add title=\"b\"\n"),
                   "two.cu: '// hpclab-bench:' on lines 1 and 2"));
    CHECK(contains(file_error("vecadd3", "far.cu",
                              std::string(40, '\n') + "// hpclab-bench: kind=naive tasks=add title=\"a\"\n"),
                   "far.cu:41: the '// hpclab-bench:' line must be within the first 30 lines"));
    CHECK(contains(file_error("vecadd3", "bad.cu", "// hpclab-bench: kind=naive tasks=ad title=\"a\"\n"),
                   "bad.cu:1: lab vecadd3 has no task 'ad'; its tasks are: add"));
    CHECK(contains(file_error("vecadd3", "bin.cu", std::string("\x7f" "ELF\0\0", 6)), "bin.cu: not a text file"));
    CHECK(contains(file_error("vecadd3", "solution.cu", "// hpclab-bench: kind=naive tasks=add title=\"a\"\n"),
                   "the id 'solution' is taken"));
    CHECK(contains(file_error("vecadd3", "two words.cu", "// hpclab-bench: kind=naive tasks=add title=\"a\"\n"),
                   "letters, digits, _ and -"));
}

TEST_CASE("bench variants: the verdict check gives a variant: pass, or the one its hpclab-expect line names")
{
    TempDir dir;
    const std::string line = "// hpclab-bench: kind=further tasks=add title=\"wide\"\n";
    CHECK(read_variant_file(dir.write("plain.cu", line), "plain.cu", lab_of("vecadd3")).expect == "pass");
    const auto launch = dir.write("launch.cu", line + "// hpclab-expect: wrong_launch\n");
    CHECK(read_variant_file(launch, "launch.cu", lab_of("vecadd3")).expect == "wrong_launch");
    CHECK(contains(file_error("vecadd3", "typo.cu", line + "// hpclab-expect: wrong_lunch\n"),
                   "typo.cu:2: 'wrong_lunch' is not a verdict"));
}

TEST_CASE("bench variants: the fixture folder's files, ordered by kind then id")
{
    const auto dir = test::test_data() / "bench";
    const auto vecadd3 = discover_variants(dir, lab_of("vecadd3"), test::course_root());
    REQUIRE(vecadd3.size() == 2);
    CHECK(vecadd3[0].id == "one_thread_per_block");  // naive
    CHECK(vecadd3[0].kind == VariantKind::naive);
    CHECK(vecadd3[1].id == "grid_stride");  // further
    const auto matmul = discover_variants(dir, lab_of("matmul"), test::course_root());
    REQUIRE(matmul.size() == 1);
    CHECK(matmul[0].id == "cublas_sgemm");
    CHECK(matmul[0].kind == VariantKind::library);
    CHECK(matmul[0].link == std::vector<std::string> {"cublas"});
    CHECK(matmul[0].tasks == std::vector<std::string> {"naive", "tiled"});
    // A lab without a folder there has none.
    CHECK(discover_variants(dir, lab_of("hello"), test::course_root()).empty());
}

TEST_CASE("bench variants: a bad file in the folder stops discovery, naming it relative to the course")
{
    TempDir dir;
    dir.write("vecadd3/good.cu", "// hpclab-bench: kind=naive tasks=add title=\"g\"\n");
    dir.write("vecadd3/notes.md", "not a variant: not a .cu file\n");
    CHECK(discover_variants(dir.path(), lab_of("vecadd3"), dir.path()).size() == 1);
    dir.write("vecadd3/missing_line.cu", "int x;\n");
    try {
        discover_variants(dir.path(), lab_of("vecadd3"), dir.path());
        FAIL("a file without its line was accepted");
    } catch (const BenchInputError& e) {
        CHECK(contains(e.what(), "vecadd3/missing_line.cu: no '// hpclab-bench:' line"));
    }
}

TEST_CASE("bench variants: the solution covers the lab's timed tasks, as the course's version")
{
    const BenchVariant ref = solution_variant(lab_of("matmul"));
    CHECK(ref.id == "solution");
    CHECK(ref.kind == VariantKind::course);
    CHECK(ref.tasks == std::vector<std::string> {"naive", "tiled"});
    CHECK(ref.source == lab_of("matmul").solution_source());
}

TEST_CASE("bench variants: the limit is the file cudamemcpy.cu, and that file is the limit")
{
    TempDir dir;
    const auto file = dir.write("cudamemcpy.cu", "// hpclab-bench: kind=limit tasks=add title=\"copy\"\n");
    const BenchVariant copy = read_variant_file(file, "cudamemcpy.cu", lab_of("vecadd3"));
    CHECK(copy.id == kCopyVariantId);
    CHECK(copy.is_limit());
    CHECK(contains(file_error("vecadd3", "cudamemcpy.cu", "// hpclab-bench: kind=library tasks=add title=\"c\"\n"),
                   "cudamemcpy.cu:1: kind=limit is the file cudamemcpy.cu"));
    CHECK(contains(file_error("vecadd3", "ceiling.cu", "// hpclab-bench: kind=limit tasks=add title=\"c\"\n"),
                   "ceiling.cu:1: kind=limit is the file cudamemcpy.cu"));
}

TEST_CASE("bench variants: the course's memory-bound labs have their copy, first, and matmul has none")
{
    for (const char* lab : {"vecadd3", "stencil", "reduction", "rotation", "aos_soa"}) {
        CAPTURE(lab);
        const auto found = discover_variants(test::course_root() / "bench", lab_of(lab), test::course_root());
        REQUIRE_FALSE(found.empty());
        CHECK(found.front().id == kCopyVariantId);
        CHECK(found.front().is_limit());
        for (const auto& task : lab_of(lab).tasks)
            if (task.timed) CHECK(found.front().covers(task.id));  // every timed task has its ceiling
    }
    for (const auto& v : discover_variants(test::course_root() / "bench", lab_of("matmul"), test::course_root()))
        CHECK_FALSE(v.is_limit());  // compute-bound: its ceiling is cuBLAS
}
