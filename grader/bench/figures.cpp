#include "bench/figures.h"

#include "bench/metrics.h"
#include "bench/render.h"
#include "course/exit_status.h"
#include "util/rate_text.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <sstream>

namespace fs = std::filesystem;

namespace hpclab {

namespace {

// A spec's row: lab/task at a size, and a variant's id or kind.
struct RowRef {
    std::string lab, task;
    Params params;
    std::string who;
};

// "height=8192,width=8192" as params.
Params parse_size(const std::string& size, const std::string& where)
{
    Params params;
    std::istringstream items(size);
    for (std::string item; std::getline(items, item, ',');) {
        const auto eq = item.find('=');
        std::int64_t value = 0;
        const char* last = item.data() + item.size();
        if (eq == std::string::npos || eq == 0 ||
            std::from_chars(item.data() + eq + 1, last, value).ptr != last || eq + 1 == item.size())
            throw BenchInputError(fmt::format("{}: the size '{}' is not name=value[,name=value...]", where, size));
        params[item.substr(0, eq)] = value;
    }
    return params;
}

// "matmul/tiled" into lab and task.
std::pair<std::string, std::string> lab_task(const std::string& text, const std::string& where)
{
    const auto slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == text.size())
        throw BenchInputError(fmt::format("{}: '{}' is not lab/task", where, text));
    return {text.substr(0, slash), text.substr(slash + 1)};
}

// The one timed row `ref` names: by variant id, else by kind.
const BenchRow& find_row(const BenchResults& results, const RowRef& ref, const std::string& where)
{
    std::vector<const BenchRow*> by_id, by_kind;
    for (const auto& r : results.rows) {
        if (r.lab != ref.lab || r.task != ref.task || r.params != ref.params) continue;
        if (r.variant == ref.who) by_id.push_back(&r);
        else if (r.kind == ref.who) by_kind.push_back(&r);
    }
    const auto& found = by_id.empty() ? by_kind : by_id;
    const std::string row = fmt::format("{}/{} at {}", ref.lab, ref.task, format_params(ref.params));
    if (found.empty())
        throw BenchInputError(fmt::format("{}: no row of {} is the variant or the kind '{}'", where, row, ref.who));
    if (found.size() > 1)
        throw BenchInputError(fmt::format("{}: {} has {} rows of kind '{}': name the variant's id", where, row,
                                          found.size(), ref.who));
    if (!found.front()->timed())
        throw BenchInputError(fmt::format("{}: {}, {} has no number ({})", where, row, ref.who,
                                          status_name(found.front()->status)));
    return *found.front();
}

std::string measure_text(const BenchResults& results, const RowRef& ref, const std::string& what,
                         const std::string& where)
{
    const BenchRow& row = find_row(results, ref, where);
    std::string text = "-";
    if (what == "time") text = format_ms(row.median_ms);
    else if (what == "rate") text = format_rate(row.gbps * 1e9, row.gflops * 1e9);
    else if (what == "limit") text = format_limit(row);
    else if (what == "library") text = format_library(row);
    else if (what.starts_with("vs:")) {
        RowRef other = ref;
        other.who = what.substr(3);
        if (const auto slash = other.who.find('/'); slash != std::string::npos) {
            other.task = other.who.substr(0, slash);
            other.who = other.who.substr(slash + 1);
        }
        const BenchRow& base = find_row(results, other, where);
        const TimeRatio t = time_ratio(base, row);
        text = &base == &row ? format_ratio(t.value) : format_ratio_spread(t.value, t.low, t.high);
    } else {
        throw BenchInputError(fmt::format("{}: '{}' is not time, rate, limit, library or vs:<variant>", where, what));
    }
    if (text == "-") throw BenchInputError(fmt::format("{}: the row has no {} figure", where, what));
    return text;
}

int line_of(const std::string& doc, std::size_t at)
{
    return 1 + static_cast<int>(std::count(doc.begin(), doc.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

bool has_generated_parts(const std::string& doc)
{
    return doc.find(kSectionBegin) != std::string::npos || doc.find(kFigureBegin) != std::string::npos;
}

// The documents --update names: files as given, a folder's .md files that
// have something generated (the others are left alone).
std::vector<fs::path> documents(const std::vector<std::string>& given)
{
    std::vector<fs::path> out;
    for (const auto& g : given) {
        std::error_code ec;
        if (!fs::is_directory(g, ec)) {
            out.emplace_back(g);
            continue;
        }
        std::vector<fs::path> found;
        for (const auto& e : fs::directory_iterator(g, ec))
            if (e.path().extension() == ".md" && has_generated_parts(read_text_file(e.path()).value_or("")))
                found.push_back(e.path());
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

}  // namespace

std::vector<FigureSpan> find_figures(const std::string& doc, const std::string& where)
{
    std::vector<FigureSpan> out;
    for (std::size_t at = doc.find(kFigureBegin); at != std::string::npos; at = doc.find(kFigureBegin, at + 1)) {
        FigureSpan f;
        f.begin = at;
        f.line = line_of(doc, at);
        const auto spec_end = doc.find("-->", at);
        const auto close = spec_end == std::string::npos ? spec_end : doc.find(kFigureEnd, spec_end);
        const auto newline = doc.find('\n', at);
        if (close == std::string::npos || (newline != std::string::npos && newline < close))
            throw BenchInputError(fmt::format("{}:{}: a figure's '{}' without its '{}' on the same line", where, f.line,
                                              kFigureBegin, kFigureEnd));
        f.spec = doc.substr(at + kFigureBegin.size(), spec_end - at - kFigureBegin.size());
        while (!f.spec.empty() && f.spec.back() == ' ') f.spec.pop_back();
        f.text_begin = spec_end + 3;
        f.text_end = close;
        f.end = close + kFigureEnd.size();
        out.push_back(std::move(f));
    }
    return out;
}

std::string figure_text(const BenchResults& results, const std::string& spec, const std::string& where)
{
    std::istringstream words(spec);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.size() != 4)
        throw BenchInputError(fmt::format("{}: a figure reads '<lab>/<task> <size> <variant or kind> <what>', not '{}'",
                                          where, spec));
    RowRef ref;
    std::tie(ref.lab, ref.task) = lab_task(w[0], where);
    ref.params = parse_size(w[1], where);
    ref.who = w[2];
    return measure_text(results, ref, w[3], where);
}

std::string regenerate_document(const std::string& doc, const BenchResults& results, const std::string& where)
{
    const bool has_section = doc.find(kSectionBegin) != std::string::npos;
    const auto figures = find_figures(doc, where);
    if (!has_section && figures.empty())
        throw BenchInputError(fmt::format("{}: nothing generated in it (no '{}' section, no '{}' figure)", where,
                                          kSectionBegin, kFigureBegin));
    std::string out;
    std::size_t done = 0;
    for (const FigureSpan& f : figures) {
        out += doc.substr(done, f.text_begin - done);
        out += figure_text(results, f.spec, fmt::format("{}:{}", where, f.line));
        done = f.text_end;
    }
    out += doc.substr(done);
    if (!has_section) return out;
    return replace_generated_section(out, render_markdown(results_of_lab(results, section_lab(out))), where);
}

std::vector<RegeneratedDocument> regenerate_documents(const std::vector<std::string>& given,
                                                      const BenchResults& results)
{
    std::vector<RegeneratedDocument> out;
    for (const fs::path& file : documents(given)) {
        const auto doc = read_text_file(file);
        if (!doc) throw UsageError(fmt::format("--update {}: cannot be read", file.string()));
        std::string updated = regenerate_document(*doc, results, file.string());
        const bool changed = updated != *doc;
        out.push_back({file, std::move(updated), changed});
    }
    return out;
}

}  // namespace hpclab
