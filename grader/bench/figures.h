// Figures quoted in a document's prose, each generated from a results file
// so that the docs hold one set of numbers:
//
//   the tiled kernel reaches <!-- figure: matmul/tiled n=4096 course rate -->9.01 TFLOP/s<!-- /figure -->
//
// The comment names a row and what of it to show: `lab/task`, the size
// (`n=4096`, or `height=8192,width=8192`), a variant's id or its kind (the
// kind reads the same in results from before and after a variant was
// renamed), and one of
//   time      the median time ("7.899 ms")
//   rate      the throughput ("17.40 TFLOP/s", "2.81 TB/s")
//   limit     the fraction of the limit ("34%"; past 100%, whether that
//             is within the noise: "114% (within noise)")
//   library   the ratio to the library, with its spread ("0.34x (0.30..0.37)")
//   vs:WHO    the speedup over another row of the same size: its time over
//   vs:TASK/WHO   this row's, with its spread ("1.47x (1.31..1.60)", and
//             ", within noise" when the spread holds 1), WHO an id or a
//             kind as above.
// Markdown shows the text between the comments; `hpclab bench --report
// <results> --update <doc>` rewrites it, and a test checks the docs.
#pragma once

#include "bench/results.h"

#include <filesystem>

#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

inline constexpr std::string_view kFigureBegin = "<!-- figure: ";
inline constexpr std::string_view kFigureEnd = "<!-- /figure -->";

struct FigureSpan {
    std::size_t begin = 0, end = 0;            // the whole span, both comments included
    std::size_t text_begin = 0, text_end = 0;  // the figure shown
    std::string spec;                          // "matmul/tiled n=4096 course rate"
    int line = 0;                              // 1-based, for messages
};

// Every figure of `doc`, in order; a BenchInputError naming `where` and the
// line for a comment that is not closed.
std::vector<FigureSpan> find_figures(const std::string& doc, const std::string& where);

// The text of the figure `spec` names; a BenchInputError (naming `where`)
// when the spec is malformed, or its row is missing, ambiguous or has no number.
std::string figure_text(const BenchResults& results, const std::string& spec, const std::string& where);

// `doc` with its generated parts made again from `results`: the bench
// section (the lab's rows where its begin line names one) and every figure.
// A BenchInputError when it has neither.
std::string regenerate_document(const std::string& doc, const BenchResults& results, const std::string& where);

// The documents `--update` names, each made again from `results`: files as
// given, a folder's .md files that have generated parts (the others are left
// alone). All are made before any is written: one that cannot be read (a
// UsageError) or made again (a BenchInputError) leaves them all as they were.
struct RegeneratedDocument {
    std::filesystem::path file;
    std::string text;
    bool changed = false;
};
std::vector<RegeneratedDocument> regenerate_documents(const std::vector<std::string>& given,
                                                      const BenchResults& results);

}  // namespace hpclab
