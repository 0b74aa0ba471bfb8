#include "bench/render.h"

#include "bench/metrics.h"
#include "bench/variants.h"
#include "util/rate_text.h"
#include "util/text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

namespace hpclab {

namespace {

std::string work_text(const BenchRow& r)
{
    if (r.flops > 0) return fmt::format("{:.1f} GFLOP per call", r.flops / 1e9);
    if (r.bytes > 0) return fmt::format("{:.1f} MB moved per call", r.bytes / 1e6);
    return "no work model";
}

std::string rate(const BenchRow& r) { return format_rate(r.gbps * 1e9, r.gflops * 1e9); }

bool has_spread(double low, double high) { return low > 0 && high > 0; }

// "wrong", "too large": what stands where the number would be.
std::string status_word(BenchStatus s)
{
    std::string w(status_name(s));
    std::replace(w.begin(), w.end(), '_', ' ');
    return w;
}

// What differed from the commit that measured, as far as the file says.
std::string changes_note(const BenchHeader& h)
{
    constexpr std::size_t kNamed = 4;
    const auto& files = h.changed_files;
    if (files.empty())
        return h.commit.ends_with("-dirty") ? " (with uncommitted changes; which files was not recorded)" : "";
    const std::vector<std::string> named(files.begin(), files.begin() + std::min(files.size(), kNamed));
    const std::string more = files.size() > kNamed ? fmt::format(" and {} more", files.size() - kNamed) : "";
    return fmt::format(" (with uncommitted changes to {}{})", fmt::join(named, ", "), more);
}

std::string header_line(const BenchHeader& h)
{
    std::string line = fmt::format("{} (driver CUDA {}), nvcc {}", h.gpu, h.driver.empty() ? "?" : h.driver,
                                   h.nvcc.empty() ? "?" : h.nvcc);
    if (!h.date.empty()) line += ", " + h.date;
    if (!h.commit.empty()) line += ", hpclab " + h.commit + changes_note(h);
    return line;
}

// "; a device copy of 256 MiB 2.96 TB/s", or nothing where it was not measured.
std::string copy_text(double copy_gb_per_s)
{
    return copy_gb_per_s > 0 ? fmt::format("; a device copy of 256 MiB {}", format_rate(copy_gb_per_s * 1e9, 0)) : "";
}

// A later run's place, as header_line says the header's.
std::string supplement_line(const BenchSupplement& s)
{
    std::string line = s.gpu;
    if (!s.date.empty()) line += ", " + s.date;
    if (!s.commit.empty()) line += ", hpclab " + s.commit;
    return line + copy_text(s.copy_gb_per_s);
}

// What a later run was, after its place: its command and its note.
std::string supplement_why(const BenchSupplement& s)
{
    std::string why = "a later run than the results file's header names";
    if (!s.command.empty()) why += fmt::format(" (`{}`)", s.command);
    if (!s.note.empty()) why += ": " + s.note;
    return why;
}

// The sentence that names the later run a lab's rows come from.
std::string later_run_sentence(const std::string& lab, const BenchSupplement& s)
{
    return fmt::format("The rows of {}: measured on {}; {}.", lab, supplement_line(s), supplement_why(s));
}

// The one later run every row comes from (a lab's own page whose lab was
// measured after the header's run); null: the header's run, or several.
const BenchSupplement* sole_supplement(const BenchResults& results)
{
    if (results.rows.empty()) return nullptr;
    const BenchSupplement* s = supplement_of(results.header, results.rows.front().lab);
    for (const BenchRow& r : results.rows)
        if (supplement_of(results.header, r.lab) != s) return nullptr;
    return s;
}

// The labs among the rows whose rows come from a later run, in row order.
std::vector<std::string> supplemented_labs(const BenchResults& results)
{
    std::vector<std::string> labs;
    for (const BenchRow& r : results.rows)
        if (supplement_of(results.header, r.lab) && std::find(labs.begin(), labs.end(), r.lab) == labs.end())
            labs.push_back(r.lab);
    return labs;
}

// Said under a table whose copy rows were not timed at their sizes.
constexpr std::string_view kScaledCopyNote =
    "The `cudamemcpy` rows are one 256 MiB copy's bandwidth applied to each size, not copies timed at each size: "
    "a small copy does not reach that bandwidth either, so small sizes look further from the limit than they are.";

// Results recorded before the solutions became the course's versions name
// the tuned kernels `reference` (then the solutions) and today's solutions
// `course` (then bench/<lab>/course.cu); today those are `tuned` and `solution`.
constexpr std::string_view kOldNamesNote =
    "In these results, recorded before the solutions became the course's versions, the `reference` rows are the "
    "tuned kernels (today's `bench/<lab>/tuned.cu`) and the `course` rows (then `bench/<lab>/course.cu`) are "
    "today's solutions: their kinds mean what they mean today.";

bool old_names(const std::vector<BenchRow>& rows)
{
    return std::any_of(rows.begin(), rows.end(), [](const BenchRow& r) { return r.variant == "reference"; });
}

bool any_scaled_copy(const std::vector<const BenchRow*>& rows)
{
    return std::any_of(rows.begin(), rows.end(), [](const BenchRow* r) { return r->scaled_copy(); });
}

// The limits and libraries the rows were compared with, for the legend.
std::set<std::string> used(const std::vector<const BenchRow*>& rows, std::string BenchRow::*field)
{
    std::set<std::string> out;
    for (const BenchRow* r : rows)
        if (!(r->*field).empty()) out.insert(r->*field);
    return out;
}

}  // namespace

std::vector<RowGroup> group_rows(const std::vector<BenchRow>& rows)
{
    std::vector<RowGroup> groups;
    for (const auto& r : rows) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](const RowGroup& g) {
            return g.lab == r.lab && g.task == r.task && g.params == r.params;
        });
        if (it == groups.end()) it = groups.insert(groups.end(), RowGroup {r.lab, r.task, r.params, {}});
        it->rows.push_back(&r);
    }
    // The copy first, whatever its kind (library in older files): it is the
    // ceiling every other row is read against.
    const auto rank = [](const BenchRow* r) { return r->is_copy() ? -1 : kind_rank(r->kind); };
    for (auto& g : groups)
        std::stable_sort(g.rows.begin(), g.rows.end(), [&](const BenchRow* a, const BenchRow* b) {
            const int ka = rank(a), kb = rank(b);
            return ka != kb ? ka < kb : a->variant < b->variant;
        });
    return groups;
}

std::string format_ratio_spread(double value, double low, double high)
{
    if (!has_spread(low, high)) return format_ratio(value);
    return fmt::format("{} ({:.2f}..{:.2f}{})", format_ratio(value), low, high,
                       low <= 1 && 1 <= high ? ", within noise" : "");
}

std::string format_limit(const BenchRow& r)
{
    if (r.fraction_of_limit <= 1 + 0.005 || !has_spread(r.limit_low, r.limit_high))
        return format_percent(r.fraction_of_limit);
    return fmt::format("{} ({})", format_percent(r.fraction_of_limit),
                       r.limit_low <= 1 ? "within noise" : "beyond the noise: no bound at this size");
}

std::string format_library(const BenchRow& r)
{
    if (r.variant == r.library) return format_ratio(r.ratio_to_library);
    return format_ratio_spread(r.ratio_to_library, r.library_low, r.library_high);
}

std::string render_table(const BenchResults& results)
{
    const BenchHeader& h = results.header;
    std::string out = fmt::format("Benchmark on {}\n", header_line(h));
    if (h.copy_gb_per_s > 0)
        out += fmt::format("Device copy of 256 MiB (cudaMemcpy D2D): {}\n", format_rate(h.copy_gb_per_s * 1e9, 0));
    out += "Times: GPU time of each call, median and extremes of the timed calls after a warm-up; "
           "L2 flushed, every output checked.\n";
    if (!h.complete) out += "INCOMPLETE: the bench stopped (or was still running) when this was written.\n";
    for (const std::string& lab : supplemented_labs(results))
        out += later_run_sentence(lab, *supplement_of(h, lab)) + "\n";
    std::set<std::string> limits, libraries;
    bool scaled = false;
    for (const RowGroup& g : group_rows(results.rows)) {
        scaled = scaled || any_scaled_copy(g.rows);
        out += fmt::format("\n{} / {}, {} ({})\n", g.lab, g.task, format_params(g.params), work_text(*g.rows.front()));
        out += fmt::format("  {:<22} {:<9} {:>10} {:>10} {:>10} {:>14} {:>9} {:>11}  {}\n", "variant", "kind", "median",
                           "min", "max", "throughput", "of limit", "vs library", "title");
        for (const BenchRow* r : g.rows) {
            if (r->timed())
                out += fmt::format("  {:<22} {:<9} {:>10} {:>10} {:>10} {:>14} {:>9} {:>11}  {}\n", r->variant, r->kind,
                                   format_ms(r->median_ms), format_ms(r->min_ms), format_ms(r->max_ms), rate(*r),
                                   format_limit(*r), format_library(*r), r->title);
            else
                out += fmt::format("  {:<22} {:<9} {:>10}  {}\n", r->variant, r->kind, status_word(r->status),
                                   r->message);
        }
        for (auto& l : used(g.rows, &BenchRow::limit_name)) limits.insert(l);
        for (auto& l : used(g.rows, &BenchRow::library)) libraries.insert(l);
    }
    if (!limits.empty())
        out += fmt::format("\nof limit: throughput as a fraction of {}.\n", fmt::join(limits, "; "));
    if (!libraries.empty())
        out += fmt::format("vs library: the time of {} over the variant's (above 1: faster than it), and how far it "
                           "may be off (fastest call against slowest, both ways).\n",
                           fmt::join(libraries, " / "));
    if (scaled) out += fmt::format("{}\n", kScaledCopyNote);
    return out;
}

std::string render_markdown(const BenchResults& results)
{
    const BenchHeader& h = results.header;
    if (results.rows.empty())  // a lab the file has no row of (its sweep came after the measurement)
        return fmt::format("Not measured yet: the results file ({}) holds no row of this lab. `hpclab bench` on "
                           "a GPU measures it (scripts/gpu-suite.sh, part bench, for the docs' file).\n",
                           header_line(h));
    const BenchSupplement* sole = sole_supplement(results);
    std::string out = fmt::format("Measured on {}", sole ? supplement_line(*sole) : header_line(h));
    if (!sole) out += copy_text(h.copy_gb_per_s);
    if (sole) out += "; " + supplement_why(*sole);
    if (const auto later = supplemented_labs(results); !sole && !later.empty())
        out += fmt::format(". The rows of {} come from later runs, each named above its lab's tables",
                           fmt::join(later, ", "));
    out += ". Each time is the GPU time of a call: the median, and the extremes, of the timed calls after a "
           "warm-up, each call on fresh inputs with a cold L2 and its outputs checked";
    const bool timed_copy = std::any_of(results.rows.begin(), results.rows.end(),
                                        [](const BenchRow& r) { return r.is_copy() && !r.scaled_copy(); });
    out += timed_copy ? " (the copy's are not the task's: not checked).\n" : ".\n";
    out += "\n*kind*: `limit` the copy of the same bytes (the ceiling: a device copy; where the lab's vectors are "
           "host memory, the call's copies to the device and back), `naive` a plainer version to compare "
           "with, `course` the lesson's version (the solution), `reference` the tuned speed baseline, `further` "
           "going further, `library` a library's.\n";
    if (old_names(results.rows)) out += fmt::format("\n{}\n", kOldNamesNote);
    if (!h.complete) out += "\n**Incomplete**: the bench stopped before it measured everything.\n";
    const auto groups = group_rows(results.rows);
    for (std::size_t i = 0; i < groups.size();) {
        // One table per lab task, every size in it.
        std::size_t j = i;
        std::vector<const BenchRow*> rows;
        for (; j < groups.size() && groups[j].lab == groups[i].lab && groups[j].task == groups[i].task; ++j)
            rows.insert(rows.end(), groups[j].rows.begin(), groups[j].rows.end());
        const BenchSupplement* later = supplement_of(h, groups[i].lab);
        if (later && !sole && (i == 0 || groups[i - 1].lab != groups[i].lab))
            out += "\n" + later_run_sentence(groups[i].lab, *later) + "\n";
        out += fmt::format("\n### {} / {}\n\n", groups[i].lab, groups[i].task);
        out += "| size | variant | kind | median | min .. max | throughput | of limit | vs library |\n"
               "|---|---|---|---:|---:|---:|---:|---:|\n";
        std::vector<std::string> notes;
        for (const BenchRow* r : rows) {
            const std::string variant = markdown_cell(fmt::format("`{}`: {}", r->variant, r->title));
            if (r->timed()) {
                out += fmt::format("| {} | {} | {} | {} | {} .. {} | {} | {} | {} |\n", format_params(r->params),
                                   variant, r->kind, format_ms(r->median_ms), format_ms(r->min_ms),
                                   format_ms(r->max_ms), rate(*r), format_limit(*r), format_library(*r));
            } else {
                out += fmt::format("| {} | {} | {} | {} | - | - | - | - |\n", format_params(r->params), variant,
                                   r->kind, status_word(r->status));
                notes.push_back(markdown_cell(fmt::format("- {}, `{}`: {}: {}", format_params(r->params), r->variant,
                                                          status_word(r->status), r->message)));
            }
        }
        const auto limits = used(rows, &BenchRow::limit_name);
        const auto libraries = used(rows, &BenchRow::library);
        if (!limits.empty() || !libraries.empty()) out += "\n";
        if (!limits.empty()) out += fmt::format("*of limit*: a fraction of {}. ", fmt::join(limits, "; "));
        if (!libraries.empty())
            out += fmt::format("*vs library*: the time of `{}` over the variant's (above 1: faster), and in brackets "
                               "how far it may be off (the fastest call against the slowest, both ways; "
                               "within noise when that holds 1).",
                               fmt::join(libraries, "` / `"));
        if (!limits.empty() || !libraries.empty()) out += "\n";
        if (any_scaled_copy(rows)) out += fmt::format("\n{}\n", kScaledCopyNote);
        if (!notes.empty()) out += fmt::format("\n{}\n", fmt::join(notes, "\n"));
        i = j;
    }
    return out;
}

std::string section_lab(const std::string& doc)
{
    const auto begin = doc.find(kSectionBegin);
    if (begin == std::string::npos) return "";
    const std::string line = doc.substr(begin, doc.find('\n', begin) - begin);
    const auto at = line.find(" lab=");
    if (at == std::string::npos) return "";
    const auto end = line.find_first_of(" >", at + 5);
    return line.substr(at + 5, end - at - 5);
}

BenchResults results_of_lab(BenchResults results, const std::string& lab)
{
    if (lab.empty()) return results;
    std::erase_if(results.rows, [&](const BenchRow& r) { return r.lab != lab; });
    return results;
}

std::string generated_section(const std::string& doc, const std::string& where)
{
    const auto begin = doc.find(kSectionBegin);
    const auto end = doc.find(kSectionEnd);
    if (begin == std::string::npos || end == std::string::npos || end < begin)
        throw BenchInputError(fmt::format("{}: no generated section (a line starting with '{}', then a line '{}')",
                                          where, kSectionBegin, kSectionEnd));
    const auto body_start = doc.find('\n', begin) + 1;
    if (body_start == 0 || body_start > end)
        throw BenchInputError(fmt::format("{}: the line '{}' must be on a line after the one starting with '{}'", where,
                                          kSectionEnd, kSectionBegin));
    return doc.substr(body_start, end - body_start);
}

std::string replace_generated_section(const std::string& doc, const std::string& body, const std::string& where)
{
    generated_section(doc, where);  // the markers are there, in order
    const auto body_start = doc.find('\n', doc.find(kSectionBegin)) + 1;
    const auto end = doc.find(kSectionEnd);
    std::string text = body;
    if (!text.empty() && text.back() != '\n') text += '\n';
    return doc.substr(0, body_start) + text + doc.substr(end);
}

}  // namespace hpclab
