#include "bench/variants.h"

#include "course/verdict.h"
#include "util/escape.h"
#include "util/shown_path.h"
#include "util/text_file.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

constexpr std::array<std::string_view, 6> kKindNames = {"limit", "naive", "course", "reference", "further", "library"};

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_name(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), is_name_char);
}

// "a,b,c" as names; `what` says which field in errors.
std::vector<std::string> name_list(std::string_view value, const std::string& where, const char* what)
{
    std::vector<std::string> out;
    std::set<std::string> seen;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = value.find(',', start);
        const std::string_view item = value.substr(start, comma == std::string_view::npos ? comma : comma - start);
        if (!is_name(item))
            throw BenchInputError(fmt::format("{}: {}={}: each entry must be a name of letters, digits and _, "
                                              "separated by commas without spaces",
                                              where, what, value));
        if (!seen.insert(std::string(item)).second)
            throw BenchInputError(fmt::format("{}: {} lists '{}' twice", where, what, item));
        out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

std::string example_line()
{
    return fmt::format("{} kind=<{}> tasks=<task ids, comma-separated> title=\"<short title>\" [link=<libraries>]",
                       kVariantTag, fmt::join(kKindNames, "|"));
}

std::string trimmed(std::string_view s)
{
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return "";
    const auto e = s.find_last_not_of(" \t\r");
    return std::string(s.substr(b, e - b + 1));
}

}  // namespace

std::string_view kind_name(VariantKind kind) { return kKindNames[static_cast<std::size_t>(kind)]; }

std::optional<VariantKind> kind_from_name(std::string_view name)
{
    return enum_from_name<VariantKind>(kKindNames, name);
}

std::string kind_names() { return fmt::format("{}", fmt::join(kKindNames, ", ")); }

int kind_rank(std::string_view kind)
{
    const auto k = kind_from_name(kind);
    return k ? static_cast<int>(*k) : static_cast<int>(kKindNames.size());
}

bool BenchVariant::covers(std::string_view task) const
{
    return std::find(tasks.begin(), tasks.end(), task) != tasks.end();
}

bool variant_order(const BenchVariant& a, const BenchVariant& b)
{
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.id < b.id;
}

BenchVariant parse_variant_fields(std::string_view fields, const std::string& where)
{
    std::map<std::string, std::string> values;
    std::size_t i = 0;
    const auto skip_spaces = [&] {
        while (i < fields.size() && (fields[i] == ' ' || fields[i] == '\t' || fields[i] == '\r')) ++i;
    };
    for (skip_spaces(); i < fields.size(); skip_spaces()) {
        const std::size_t key_start = i;
        while (i < fields.size() && is_name_char(fields[i])) ++i;
        const std::string key(fields.substr(key_start, i - key_start));
        if (key.empty() || i >= fields.size() || fields[i] != '=')
            throw BenchInputError(fmt::format("{}: expected key=value at '{}'; the line reads\n  {}", where,
                                              trimmed(fields.substr(key_start)), example_line()));
        ++i;  // '='
        std::string value;
        if (i < fields.size() && fields[i] == '"') {
            const std::size_t close = fields.find('"', i + 1);
            if (close == std::string_view::npos)
                throw BenchInputError(fmt::format("{}: {}=\"...: the closing quote is missing", where, key));
            value = fields.substr(i + 1, close - i - 1);
            i = close + 1;
        } else {
            const std::size_t start = i;
            while (i < fields.size() && fields[i] != ' ' && fields[i] != '\t' && fields[i] != '\r') ++i;
            value = fields.substr(start, i - start);
        }
        if (key != "kind" && key != "tasks" && key != "title" && key != "link")
            throw BenchInputError(
                fmt::format("{}: unknown field '{}' (the fields are kind, tasks, title and link)", where, key));
        if (trimmed(value).empty()) throw BenchInputError(fmt::format("{}: {} is empty", where, key));
        if (!values.emplace(key, trimmed(value)).second)
            throw BenchInputError(fmt::format("{}: {} is given twice", where, key));
    }

    BenchVariant v;
    for (const char* required : {"kind", "tasks", "title"})
        if (!values.count(required))
            throw BenchInputError(fmt::format("{}: {} is missing; the line reads\n  {}", where, required, example_line()));
    const auto kind = kind_from_name(values["kind"]);
    if (!kind)
        throw BenchInputError(
            fmt::format("{}: unknown kind '{}' (the kinds are {})", where, values["kind"], kind_names()));
    v.kind = *kind;
    v.tasks = name_list(values["tasks"], where, "tasks");
    v.title = values["title"];
    if (values.count("link")) v.link = name_list(values["link"], where, "link");
    return v;
}

BenchVariant read_variant_file(const fs::path& file, const std::string& shown, const LabInfo& lab)
{
    const auto text = read_text_file(file);
    if (!text) throw BenchInputError(fmt::format("{}: cannot be read", shown));
    if (text->find('\0') != std::string::npos) throw BenchInputError(fmt::format("{}: not a text file", shown));

    std::vector<std::pair<int, std::string>> tagged;  // line number, the fields after the tag
    std::optional<std::string> expect;
    std::istringstream in(*text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string t = trimmed(line);
        if (t.rfind(kVariantTag, 0) == 0) tagged.emplace_back(number, t.substr(kVariantTag.size()));
        if (t.rfind(kExpectTag, 0) != 0) continue;
        expect = trimmed(t.substr(kExpectTag.size()));
        if (!verdict_from_name(*expect))
            throw BenchInputError(fmt::format("{}:{}: '{}' is not a verdict (hpclab verdicts lists them)", shown,
                                              number, *expect));
    }
    if (tagged.empty())
        throw BenchInputError(fmt::format("{}: no '{}' line. A variant file says what it is near its top, in one "
                                          "line:\n  {}",
                                          shown, kVariantTag, example_line()));
    if (tagged.size() > 1)
        throw BenchInputError(fmt::format("{}: '{}' on lines {} and {}: keep one", shown, kVariantTag,
                                          tagged[0].first, tagged[1].first));
    const auto& [number, fields] = tagged.front();
    const std::string where = fmt::format("{}:{}", shown, number);
    if (number > kVariantLineWindow)
        throw BenchInputError(fmt::format("{}: the '{}' line must be within the first {} lines", where, kVariantTag,
                                          kVariantLineWindow));

    BenchVariant v = parse_variant_fields(fields, where);
    v.source = file;
    if (expect) v.expect = *expect;
    v.id = file.stem().string();
    if (!std::all_of(v.id.begin(), v.id.end(), [](char c) { return is_name_char(c) || c == '-'; }))
        throw BenchInputError(fmt::format("{}: a variant's file name is its id: use letters, digits, _ and -", shown));
    if (v.id == kSolutionId)
        throw BenchInputError(fmt::format("{}: the id '{}' is taken by the bench's own rows: rename the file", shown, v.id));
    // One limit per lab, under the id the metrics and the docs know it by.
    if ((v.id == kCopyVariantId) != v.is_limit())
        throw BenchInputError(fmt::format("{}: kind=limit is the file {}.cu (the copy of the task's bytes), and that "
                                          "file is kind=limit",
                                          where, kCopyVariantId));
    for (const auto& task : v.tasks)
        if (!lab.find_task(task))
            throw BenchInputError(
                fmt::format("{}: lab {} has no task '{}'; its tasks are: {}", where, lab.id, task, lab.task_ids()));
    return v;
}

std::vector<BenchVariant> discover_variants(const fs::path& dir, const LabInfo& lab, const fs::path& root)
{
    std::vector<BenchVariant> out;
    const fs::path lab_dir = dir / lab.id;
    std::error_code ec;
    if (!fs::is_directory(lab_dir, ec)) return out;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(lab_dir, ec))
        if (entry.path().extension() == ".cu" && entry.is_regular_file(ec)) files.push_back(entry.path());
    if (ec) throw BenchInputError(fmt::format("{}: cannot be listed: {}", shown_path(lab_dir, root), ec.message()));
    std::sort(files.begin(), files.end());
    for (const auto& f : files) out.push_back(read_variant_file(f, shown_path(f, root), lab));
    std::stable_sort(out.begin(), out.end(), variant_order);
    return out;
}

BenchVariant solution_variant(const LabInfo& lab)
{
    BenchVariant v;
    v.id = kSolutionId;
    v.kind = VariantKind::course;
    v.title = "the solution (the course's version)";
    v.source = lab.solution_source();
    for (const auto& t : lab.tasks)
        if (t.timed) v.tasks.push_back(t.id);
    return v;
}

CourseVariants course_variants(const Catalog& catalog, const fs::path& dir, const fs::path& root)
{
    CourseVariants found;
    for (const LabInfo& lab : catalog.labs()) {
        try {
            for (BenchVariant& v : discover_variants(dir, lab, root)) found.variants.emplace_back(&lab, std::move(v));
        } catch (const BenchInputError& e) {
            found.problems.push_back(e.what());
        }
    }
    return found;
}

std::string variants_cmake(const CourseVariants& found)
{
    std::string out = "# Written by hpclab variants --cmake: bench/'s variants (grader/bench/variants.cpp).\n";
    std::vector<std::string> names;
    for (const auto& [lab, v] : found.variants) {
        const std::string name = lab->id + "." + v.id;
        names.push_back(name);
        const auto var = [&](const char* field, const std::string& value) {
            out += fmt::format("set(HPCLAB_BENCH_VARIANT_{}_{} \"{}\")\n", name, field, for_cmake(value));
        };
        var("FILE", v.source.string());
        var("KIND", std::string(kind_name(v.kind)));
        var("TASKS", fmt::format("{}", fmt::join(v.tasks, ";")));
        var("LINK", fmt::format("{}", fmt::join(v.link, ";")));
        var("EXPECT", v.expect);
    }
    out += fmt::format("set(HPCLAB_BENCH_VARIANTS \"{}\")\n", fmt::join(names, ";"));
    out += "set(HPCLAB_BENCH_VARIANT_PROBLEMS \"\")\n";
    for (const auto& p : found.problems)
        out += fmt::format("list(APPEND HPCLAB_BENCH_VARIANT_PROBLEMS \"{}\")\n", for_cmake(p));
    return out;
}

}  // namespace hpclab
