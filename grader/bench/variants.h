// The variants `hpclab bench` measures: the solution, and other
// implementations of a lab's entry points in bench/<lab>/<id>.cu. Each such
// file implements every entry point of labs/<lab>/<lab>.h and says near its
// top, in one line, what it is:
//
//   // hpclab-bench: kind=library tasks=naive,tiled title="cuBLAS SGEMM" link=cublas
//
// kind: limit, naive, course, reference, further or library (the order of
// the tables); tasks: the lab tasks it is measured on; title: a short title;
// link (optional): CUDA toolkit libraries it calls.
//
// A variant that computes right with another launch than the lesson's says
// so in a line of its own, `// hpclab-expect: wrong_launch`: the verdict
// `hpclab check` must give it in place of the student's file (else pass).
//
// kind=limit is the ceiling of a memory-bound task, not a version of it: a
// device-to-device copy of the bytes the task moves at that size (the file
// bench/<lab>/cudamemcpy.cu, the only id it may have). Its outputs are not
// the task's, so they are not checked; it is timed like every variant.
#pragma once

#include "bench/row.h"
#include "course/lab_catalog.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hpclab {

enum class VariantKind { limit, naive, course, reference, further, library };

std::string_view kind_name(VariantKind kind);
std::optional<VariantKind> kind_from_name(std::string_view name);
// "limit, naive, course, reference, further, library": for messages.
std::string kind_names();

struct BenchVariant {
    std::string id;  // the file's stem; "solution" for the solution
    VariantKind kind = VariantKind::reference;
    std::vector<std::string> tasks;
    std::string title;
    std::vector<std::string> link;  // toolkit libraries ("cublas")
    std::filesystem::path source;
    std::string expect = "pass";  // the verdict `hpclab check` gives the file (its hpclab-expect line)

    bool covers(std::string_view task) const;
    // The copy of the same bytes: timed, never judged (its outputs are not the task's).
    bool is_limit() const { return kind == VariantKind::limit; }
};

inline constexpr std::string_view kVariantTag = "// hpclab-bench:";
inline constexpr std::string_view kExpectTag = "// hpclab-expect:";
// How far from the top the line may be (after a licence header, say).
inline constexpr int kVariantLineWindow = 30;
inline constexpr std::string_view kSolutionId = "solution";

// The fields after the tag (`kind=... tasks=... title="..." [link=...]`);
// `where` ("bench/matmul/cublas.cu:3") starts every error message. Checks
// the syntax only: the tasks are checked against the lab by read_variant_file.
BenchVariant parse_variant_fields(std::string_view fields, const std::string& where);

// A variant file of `lab`: its line found and parsed, its tasks checked.
// `shown` is the file's name in messages. Throws BenchInputError.
BenchVariant read_variant_file(const std::filesystem::path& file, const std::string& shown, const LabInfo& lab);

// Every <dir>/<lab>/*.cu, ordered by kind, then id; none when there is no
// such folder. Files are named in messages relative to `root`.
std::vector<BenchVariant> discover_variants(const std::filesystem::path& dir, const LabInfo& lab,
                                            const std::filesystem::path& root);

// The lab's solution (the course's version), as the variant of every timed task.
BenchVariant solution_variant(const LabInfo& lab);

// Every lab's variants in <dir>/<lab>/, and for each lab whose variants
// cannot be read, why (its BenchInputError's message).
struct CourseVariants {
    std::vector<std::pair<const LabInfo*, BenchVariant>> variants;
    std::vector<std::string> problems;
};
CourseVariants course_variants(const Catalog& catalog, const std::filesystem::path& dir,
                               const std::filesystem::path& root);
// As CMake variables (hpclab variants --cmake, for the tests):
// HPCLAB_BENCH_VARIANTS lists <lab>.<id>, each with its _FILE, _KIND,
// _TASKS, _LINK and _EXPECT; HPCLAB_BENCH_VARIANT_PROBLEMS the problems.
std::string variants_cmake(const CourseVariants& found);

// Table order: kind (the limit first, library last), then id.
bool variant_order(const BenchVariant& a, const BenchVariant& b);
int kind_rank(std::string_view kind);  // of a kind's name; unknown names last

}  // namespace hpclab
