// Benchmark results as a person reads them: a text table for the terminal,
// a markdown one for the docs, and the docs' generated section that holds it.
#pragma once

#include "bench/results.h"

#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// The rows of one lab task at one size.
struct RowGroup {
    std::string lab, task;
    Params params;
    std::vector<const BenchRow*> rows;  // by kind (naive first, library last), then variant
};

// Groups in the order they first appear (the bench writes them in course
// order, smallest size first).
std::vector<RowGroup> group_rows(const std::vector<BenchRow>& rows);

// A ratio with its spread, "1.27x (1.04..1.44)", and ", within noise" when
// the spread holds 1 (bench/metrics.h, TimeRatio): no ratio stands alone.
std::string format_ratio_spread(double value, double low, double high);
// A fraction of the limit, "34%"; past 100% it says whether that is within
// the noise of both rows, or the limit is no limit at this size.
std::string format_limit(const BenchRow& r);
// The ratio to the library with its spread; the library's own row, "1.00x".
std::string format_library(const BenchRow& r);

std::string render_table(const BenchResults& results);
std::string render_markdown(const BenchResults& results);

// A document's generated section: the lines between a line that starts
// with kSectionBegin and the line kSectionEnd.
inline constexpr std::string_view kSectionBegin = "<!-- bench:begin";
inline constexpr std::string_view kSectionEnd = "<!-- bench:end -->";
// The lab a document's section shows, when its begin line names one
// ("<!-- bench:begin lab=matmul ..."): a walkthrough's table; empty: every lab.
std::string section_lab(const std::string& doc);
// `results` with only that lab's rows (every row when `lab` is empty).
BenchResults results_of_lab(BenchResults results, const std::string& lab);
// The section's text; a BenchInputError naming `where` without the markers.
std::string generated_section(const std::string& doc, const std::string& where);
// The document with the section's text replaced by `body`.
std::string replace_generated_section(const std::string& doc, const std::string& body, const std::string& where);

}  // namespace hpclab
