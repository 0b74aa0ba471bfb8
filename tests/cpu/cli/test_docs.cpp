// The README's lab table is what `hpclab list --markdown` prints from the
// metadata (docs never repeat the metadata by hand), and the docs index
// links every lab's walkthrough. Every measured figure in the docs is a
// rendering of a results file in docs/results/ (tables, plots and the
// figures quoted in prose), and the pictures are what hpclab makes of the
// lab's image.
#include "bench/figures.h"
#include "bench/plan.h"
#include "bench/metrics.h"
#include "bench/plot.h"
#include "bench/render.h"
#include "course/image_task.h"
#include "course/pgm.h"
#include "test_support.h"
#include "util/text.h"

#include <doctest/doctest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace hpclab;

namespace {
std::string read(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}


BenchResults docs_results()
{
    BenchResults r = read_results_file(test::course_root() / "docs" / "results" / "bench-h100.json");
    compute_metrics(r.rows, r.header.gpu);
    return r;
}
}  // namespace

TEST_CASE("docs: the README's lab table is generated from the metadata")
{
    const std::string readme = read(test::course_root() / "README.md");
    const auto begin = readme.find("<!-- labs:begin");
    const auto end = readme.find("<!-- labs:end -->");
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    const auto body_start = readme.find('\n', begin) + 1;
    const std::string table = readme.substr(body_start, end - body_start);
    const ProcessResult r = test::run_hpclab({"list", "--markdown"});
    REQUIRE(r.exit_code == 0);
    CHECK_MESSAGE(table == r.out, "README.md's table is stale: paste the output of ./hpclab list --markdown");
}

TEST_CASE("docs: each walkthrough's table of mistakes is its lab.json's list")
{
    for (const auto& lab : test::catalog().labs()) {
        CAPTURE(lab.id);
        const std::string doc = read(test::course_root() / "docs" / (lab.id + ".md"));
        const auto begin = doc.find("<!-- mistakes:begin lab=" + lab.id + " ");
        const auto end = doc.find("<!-- mistakes:end -->");
        REQUIRE(begin != std::string::npos);
        REQUIRE(end != std::string::npos);
        const auto body_start = doc.find('\n', begin) + 1;
        const ProcessResult r = test::run_hpclab({"list", lab.id, "--markdown"});
        REQUIRE(r.exit_code == 0);
        const std::string stale = "docs/" + lab.id + ".md's table of mistakes is stale: paste the output of ./hpclab list " +
                                  lab.id + " --markdown";
        CHECK_MESSAGE(doc.substr(body_start, end - body_start) == r.out, stale);
    }
}

TEST_CASE("docs: the index links every walkthrough")
{
    const std::string index = read(test::course_root() / "docs" / "README.md");
    for (const auto& lab : test::catalog().labs()) CHECK(index.find("(" + lab.id + ".md)") != std::string::npos);
    CHECK(index.find("(performance.md)") != std::string::npos);
    CHECK(index.find("(instructors.md)") != std::string::npos);
}

TEST_CASE("docs: the performance page's results are the rendering of docs/results/bench-h100.json")
{
    const std::string page = read(test::course_root() / "docs" / "performance.md");
    const std::string section = generated_section(page, "docs/performance.md");
    const auto results = test::course_root() / "docs" / "results" / "bench-h100.json";
    if (!std::filesystem::exists(results)) {
        CHECK_MESSAGE(section.find("No results recorded yet") != std::string::npos,
                      "docs/performance.md shows results, but docs/results/bench-h100.json is not there");
        return;
    }
    const ProcessResult r = test::run_hpclab({"bench", "--report", results.string(), "--markdown"});
    REQUIRE(r.exit_code == 0);
    CHECK_MESSAGE(section == r.out, "docs/performance.md's results are stale: run ./hpclab bench --report "
                                    "docs/results/bench-h100.json --update docs/performance.md");
}

TEST_CASE("docs: every picture a walkthrough shows is there, is an SVG, and is shown")
{
    namespace fs = std::filesystem;
    const fs::path docs = test::course_root() / "docs";
    std::string all_docs;
    for (const auto& e : fs::directory_iterator(docs))
        if (e.path().extension() == ".md") all_docs += read(e.path());
    // Each reference names a file that exists.
    for (std::size_t at = 0; (at = all_docs.find("](figures/", at)) != std::string::npos; ++at) {
        const std::size_t end = all_docs.find(')', at);
        const std::string name = all_docs.substr(at + 2, end - at - 2);
        CAPTURE(name);
        CHECK(fs::is_regular_file(docs / name));
    }
    // Each figure is a whole SVG, and some walkthrough shows it.
    int figures = 0;
    for (const auto& e : fs::directory_iterator(docs / "figures")) {
        if (e.path().extension() != ".svg") continue;
        ++figures;
        const std::string svg = read(e.path());
        CAPTURE(e.path().filename().string());
        CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
        CHECK(svg.find("</svg>") != std::string::npos);
        CHECK(all_docs.find("](figures/" + e.path().filename().string() + ")") != std::string::npos);
    }
    CHECK(figures >= 5);
    // The pictures of the rotation lab's image too.
    for (const auto& e : fs::directory_iterator(docs / "figures")) {
        if (e.path().extension() != ".png") continue;
        CAPTURE(e.path().filename().string());
        CHECK(read(e.path()).rfind("\x89PNG\r\n\x1a\n", 0) == 0);
        CHECK(all_docs.find("](figures/" + e.path().filename().string() + ")") != std::string::npos);
    }
}

TEST_CASE("docs: the walkthroughs' plots are the rendering of docs/results/bench-h100.json")
{
    namespace fs = std::filesystem;
    BenchResults results = read_results_file(test::course_root() / "docs" / "results" / "bench-h100.json");
    compute_metrics(results.rows, results.header.gpu);  // as hpclab bench --report does
    const auto plots = render_plots(results);
    CHECK(plots.size() >= 9);  // vecadd3, stencil, reduction (3 tasks), matmul (2), rotation (2) at least
    std::set<std::string> drawn, kept;
    for (const auto& [name, svg] : plots) drawn.insert(name);
    for (const auto& e : fs::directory_iterator(test::course_root() / "docs" / "figures" / "bench"))
        kept.insert(e.path().filename().string());
    CHECK_MESSAGE(drawn == kept, "docs/figures/bench/ holds other plots than the results draw: redraw it");
    for (const auto& [name, svg] : plots) {
        CAPTURE(name);
        CHECK_MESSAGE(read(test::course_root() / "docs" / "figures" / "bench" / name) == svg,
                      "redraw: hpclab bench --report docs/results/bench-h100.json --plot docs/figures/bench");
    }
}

TEST_CASE("docs: getting-started's commands marked to run on a CPU run, and print what the page shows")
{
    const std::string doc = read(test::course_root() / "docs" / "getting-started.md");
    const test::TempDir state;  // a new student: nothing solved, no hint seen
    int blocks = 0;
    for (std::size_t at = 0; (at = doc.find("<!-- runs on a CPU -->\n```sh\n", at)) != std::string::npos; ++at) {
        const std::size_t cmd_begin = doc.find("```sh\n", at) + 6;
        const std::string command = doc.substr(cmd_begin, doc.find('\n', cmd_begin) - cmd_begin);
        CAPTURE(command);
        REQUIRE(command.rfind("./hpclab ", 0) == 0);
        const std::size_t text = doc.find("```text\n", cmd_begin);
        const std::size_t text_end = doc.find("```\n", text + 8);
        const std::string excerpt = doc.substr(text + 8, text_end - text - 8);
        ProcessSpec spec;
        spec.argv = {HPCLAB_EXE};
        std::istringstream words(command.substr(9));
        for (std::string w; words >> w;) spec.argv.push_back(w);
        spec.set_env = {{"HPCLAB_ROOT", test::course_root().string()}, {"HPCLAB_STATE", state.path().string()},
                        {"CUDA_VISIBLE_DEVICES", ""}};
        spec.wall_limit_s = 300;
        const ProcessResult r = run_process(spec);
        ++blocks;
        if (r.exit_code == 77) {
            MESSAGE("skipped here (no CUDA compiler): " << command);
            continue;
        }
        CHECK(r.exit_code == 0);
        std::istringstream lines(excerpt);
        for (std::string line; std::getline(lines, line);)
            if (!line.empty()) CHECK_MESSAGE(r.out.find(line) != std::string::npos, "not printed: " << line);
    }
    CHECK(blocks >= 4);
}

TEST_CASE("docs: each walkthrough's measured table is its lab's rendering of docs/results/bench-h100.json")
{
    BenchResults results = read_results_file(test::course_root() / "docs" / "results" / "bench-h100.json");
    compute_metrics(results.rows, results.header.gpu);  // as hpclab bench --report does
    int tables = 0;
    for (const auto& lab : test::catalog().labs()) {
        const std::string doc = read(lab.doc);
        if (doc.find(kSectionBegin) == std::string::npos) continue;
        CAPTURE(lab.id);
        CHECK(section_lab(doc) == lab.id);
        CHECK_MESSAGE(generated_section(doc, lab.doc.string()) == render_markdown(results_of_lab(results, lab.id)),
                      "stale: ./hpclab bench --report docs/results/bench-h100.json --update docs/" << lab.id << ".md");
        ++tables;
    }
    CHECK(tables == static_cast<int>(labs_with_sweeps(test::catalog()).size()));  // every lab with a bench sweep
}

TEST_CASE("docs: every page's generated tables and figures are the rendering of docs/results/bench-h100.json")
{
    const BenchResults results = docs_results();
    int generated = 0;
    for (const auto& page : test::doc_pages()) {
        const std::string doc = read(page);
        if (doc.find(kSectionBegin) == std::string::npos && doc.find(kFigureBegin) == std::string::npos) continue;
        CAPTURE(page.filename().string());
        ++generated;
        CHECK_MESSAGE(regenerate_document(doc, results, page.filename().string()) == doc,
                      "stale: ./hpclab bench --report docs/results/bench-h100.json --update docs");
    }
    CHECK(generated >= 7);  // performance.md, the five walkthroughs with a sweep, matmul-further.md
}

namespace {

// A measured figure as prose writes it: its value and half its last digit,
// in base units (ms, bytes/s, FLOP/s, a fraction, a ratio).
enum class Measure { time_ms, seconds, bytes_per_s, flops_per_s, fraction, ratio };
struct Quoted {
    Measure what;
    double value = 0, half_step = 0;
    std::string text;
};

double half_step_of(const std::string& number)
{
    const auto dot = number.find('.');
    return 0.5 * std::pow(10.0, -(dot == std::string::npos ? 0.0 : static_cast<double>(number.size() - dot - 1)));
}

// Times, throughputs, speedups and fractions of a limit written in a line.
std::vector<Quoted> quoted_figures(const std::string& line)
{
    struct Pattern {
        std::regex re;
        int number;  // the group of the number; the next group, if any, its unit
        Measure what;
    };
    static const std::vector<Pattern> patterns = {
        {std::regex(R"((\d+(?:\.\d+)?) ?(ms|us|µs)(?![A-Za-z]))"), 1, Measure::time_ms},
        {std::regex(R"((\d+(?:\.\d+)?) ?(TB/s|GB/s|MB/s))"), 1, Measure::bytes_per_s},
        {std::regex(R"((\d+(?:\.\d+)?) ?(TFLOP/s|GFLOP/s))"), 1, Measure::flops_per_s},
        {std::regex(R"((?:^|[^\w.])(\d+(?:\.\d+)?)x(?!\w))"), 1, Measure::ratio},
        // Seconds (not the end of "N min M s", read whole below); a speed-up in words: a
        // decimal "N.N times" is never a count, nor is "N times slower".
        {std::regex(R"((?:^|[^\w.])(\d+(?:\.\d+)?) ?(?:s|seconds?)(?![\w/]))"), 1, Measure::seconds},
        {std::regex(R"((?:^|[^\w.])(\d+\.\d+) times(?!\w))"), 1, Measure::ratio},
        {std::regex(R"((?:^|[^\w.])(\d+) times (?:slower|faster))"), 1, Measure::ratio},
        {std::regex(R"((\d+(?:\.\d+)?) ?(%) of (?:a |an |the )?(?:device )?(?:copy|cuBLAS|CUB|limit|library|bandwidth))"), 1,
         Measure::fraction},
        {std::regex(R"((?:^|[^\w.%])(\d*\.\d+|1) of (?:a |an |the )?(?:device )?(?:copy|cuBLAS|CUB|limit|library))"), 1,
         Measure::fraction},
    };
    static const std::map<std::string, double> unit = {{"ms", 1},     {"us", 1e-3},    {"µs", 1e-3},    {"TB/s", 1e12},
                                                       {"GB/s", 1e9}, {"MB/s", 1e6},   {"TFLOP/s", 1e12},
                                                       {"GFLOP/s", 1e9}, {"%", 1e-2}};
    std::vector<Quoted> out;
    // First the figures of two numbers, blanked before the others are read: ranges, each end a
    // figure ("1.29..1.38x", "1.5 to 4 times slower"), and "N min M s".
    static const std::regex range(R"((\d+(?:\.\d+)?)(?:\.\.| to )(\d+(?:\.\d+)?)(?:x(?!\w)| times (?:slower|faster)))");
    static const std::regex min_s(R"((\d+) min (\d+) s(?![\w/]))");
    std::string rest = line;
    const auto blank = [&](const std::smatch& m) {
        std::fill_n(rest.begin() + m.position(0), m.length(0), ' ');
    };
    for (std::sregex_iterator it(line.begin(), line.end(), range), end; it != end; ++it) {
        for (int g : {1, 2})
            out.push_back({Measure::ratio, std::stod((*it)[g].str()), half_step_of((*it)[g].str()), (*it).str()});
        blank(*it);
    }
    for (std::sregex_iterator it(line.begin(), line.end(), min_s), end; it != end; ++it) {
        out.push_back({Measure::seconds, 60 * std::stod((*it)[1].str()) + std::stod((*it)[2].str()), 0.5, (*it).str()});
        blank(*it);
    }
    for (const Pattern& p : patterns)
        for (std::sregex_iterator it(rest.begin(), rest.end(), p.re), end; it != end; ++it) {
            const std::string number = (*it)[p.number].str();
            const double scale = (*it)[p.number + 1].matched ? unit.at((*it)[p.number + 1].str()) : 1.0;
            out.push_back({p.what, std::stod(number) * scale, half_step_of(number) * scale, (*it).str()});
        }
    return out;
}

// The values each results file holds, by what they measure: a benchmark's
// rows as --report computes them; in a text file, every figure written as
// prose writes them.
using Held = std::map<Measure, std::vector<double>>;
std::map<std::string, Held> held_values()
{
    std::map<std::string, Held> files;
    for (const auto& e : std::filesystem::directory_iterator(test::course_root() / "docs" / "results")) {
        Held& held = files[e.path().filename().string()];
        if (e.path().extension() == ".txt") {
            std::istringstream lines(read(e.path()));
            static const std::regex key_s(R"(\w_s=(\d+(?:\.\d+)?))");  // "wall_s=335"
            for (std::string line; std::getline(lines, line);) {
                for (const Quoted& q : quoted_figures(line)) held[q.what].push_back(q.value);
                for (std::sregex_iterator it(line.begin(), line.end(), key_s), end; it != end; ++it)
                    held[Measure::seconds].push_back(std::stod((*it)[1].str()));
            }
            continue;
        }
        if (e.path().extension() != ".json") continue;
        BenchResults f = read_results_file(e.path());
        compute_metrics(f.rows, f.header.gpu);
        held[Measure::bytes_per_s].push_back(f.header.copy_gb_per_s * 1e9);
        for (const BenchRow& r : f.rows) {
            if (!r.timed()) continue;
            for (double ms : {r.median_ms, r.min_ms, r.max_ms}) held[Measure::time_ms].push_back(ms);
            held[Measure::bytes_per_s].push_back(r.gbps * 1e9);
            held[Measure::flops_per_s].push_back(r.gflops * 1e9);
            held[Measure::fraction].push_back(r.fraction_of_limit);
            held[Measure::ratio].push_back(r.ratio_to_library);
        }
    }
    return files;
}

// Per line of a page, the results files its paragraph names ("docs/results/x.txt"):
// a figure there must be one of theirs.
std::vector<std::set<std::string>> named_files_by_line(const std::string& page)
{
    static const std::regex name(R"(results/([\w.-]+\.(?:txt|json)))");
    std::vector<std::string> lines;
    std::istringstream in(page);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::vector<std::set<std::string>> out(lines.size());
    for (std::size_t first = 0; first < lines.size();) {
        std::size_t last = first;
        while (last < lines.size() && !trimmed(lines[last]).empty()) ++last;
        std::set<std::string> named;
        for (std::size_t i = first; i < last; ++i)
            for (std::sregex_iterator it(lines[i].begin(), lines[i].end(), name), end; it != end; ++it)
                named.insert((*it)[1].str());
        for (std::size_t i = first; i < last; ++i) out[i] = named;
        first = last + 1;
    }
    return out;
}

// The page with its generated parts (the bench table, the figures) blanked,
// lines kept where they were.
std::string prose_of(const std::string& doc, const std::string& name)
{
    std::string out = doc;
    const auto blank = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i)
            if (out[i] != '\n') out[i] = ' ';
    };
    if (const auto b = doc.find(kSectionBegin); b != std::string::npos)
        blank(b, doc.find(kSectionEnd, b) + kSectionEnd.size());
    for (const FigureSpan& f : find_figures(doc, name)) blank(f.begin, f.end);
    return out;
}

// Figures that are no measurement, each with why it may stand in prose: the
// hardware's datasheet, or a bound worked out on the page from it.
struct Allowed {
    const char* page;
    const char* figure;  // as quoted_figures finds it
    const char* why;
};
const Allowed kAllowed[] = {
    {"matmul-further.md", "67 TFLOP/s", "H100 SXM fp32 peak, NVIDIA's datasheet (132 SMs x 128 FMA x 2 x 1.98 GHz)"},
    {"matmul-further.md", "33 TB/s", "shared memory's bandwidth worked out on the page: 132 SMs x 128 bytes x 1.98 GHz"},
    {"matmul-further.md", "3.35 TB/s", "H100 SXM HBM3 bandwidth, NVIDIA's datasheet"},
    {"matmul-further.md", "495 TFLOP/s", "H100 SXM dense TF32 tensor-core peak, NVIDIA's datasheet"},
    {"how-hpclab-checks.md", "20 ms", "a setting of hpclab (the warm-up before the first timed call), not a measurement"},
    {"instructors.md", "1.44x", "a setting of hpclab calibrate (its 1.2x margin on both sides), not a measurement"},
    {"how-hpclab-checks.md", "40 s", "a setting of hpclab (a sanitizer run's time limit in a check, run/run_recipe.h)"},
    {"how-hpclab-checks.md", "60 s", "a setting of hpclab (the least time limit of a sanitizer run in grade, run/run_recipe.h)"},
    {"instructors.md", "15 s", "a setting of scripts/gpu-suite.sh (FAULT_AFTER_S, when its stand-in fault takes GPU 1)"},
    {"instructors.md", "30 s", "a setting of hpclab grade (how long it waits for a killed grader's threads)"},
    {"performance.md", "420 s", "a setting of scripts/gpu-suite.sh (BENCH_TIMEOUT's default)"},
};

// The allowance for figure `q` of `page`, if any.
const Allowed* allowance(const std::string& page, const Quoted& q)
{
    const std::string text = q.text.substr(q.text.find_first_not_of(" \t(,"));
    for (const Allowed& a : kAllowed)
        if (page == a.page && text == a.figure) return &a;
    return nullptr;
}

}  // namespace

// The figures of page `name` (its text) that no results file holds ("line: 'figure'"): each
// looked for in the files its paragraph names, else in any; the allowances used noted.
std::vector<std::string> stray_figures(const std::string& text, const std::string& name,
                                       const std::map<std::string, Held>& held, std::set<const Allowed*>& used)
{
    std::vector<std::string> strays;
    const auto named = named_files_by_line(text);
    std::istringstream lines(prose_of(text, name));
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        for (const Quoted& q : quoted_figures(line)) {
            if (const Allowed* a = allowance(name, q)) {
                used.insert(a);
                continue;
            }
            const auto& in = named[number - 1];
            const bool found = std::any_of(held.begin(), held.end(), [&](const auto& file) {
                if (!in.empty() && !in.count(file.first)) return false;
                const auto values = file.second.find(q.what);
                return values != file.second.end() &&
                       std::any_of(values->second.begin(), values->second.end(), [&](double v) {
                           return std::abs(v - q.value) <= q.half_step * (1 + 1e-9);
                       });
            });
            if (!found) strays.push_back(fmt::format("{}: '{}'", number, q.text));
        }
    }
    return strays;
}

TEST_CASE("docs: no measured figure outside the generated parts that no results file holds")
{
    const auto held = held_values();
    std::vector<std::string> strays;
    std::set<const Allowed*> allowances_used;
    for (const auto& page : test::doc_pages())
        for (const std::string& s : stray_figures(read(page), page.filename().string(), held, allowances_used))
            strays.push_back(page.lexically_relative(test::course_root()).string() + ":" + s);
    CHECK_MESSAGE(strays.empty(), "figures that no results file of docs/results/ holds (quote them as "
                                  "<!-- figure: ... --> from the results, or remove them):\n"
                                      << fmt::format("{}", fmt::join(strays, "\n")));
    for (const Allowed& a : kAllowed)  // an allowance no page needs any more goes
        CHECK_MESSAGE(allowances_used.count(&a), "allowed but not found: " << a.page << ": " << a.figure);
}

TEST_CASE("docs: a figure is looked for in the results files its paragraph names, and fails where none holds it")
{
    const std::map<std::string, Held> held = {{"a.txt", {{Measure::seconds, {335}}}},
                                              {"b.json", {{Measure::time_ms, {0.1}}, {Measure::ratio, {1.29, 1.38}}}}};
    std::set<const Allowed*> used;
    const std::string page = "It took 335 s (`docs/results/a.txt`).\n"        // 1: in the file it names
                             "\n"
                             "A call takes 0.1 ms.\n"                         // 3: in some file
                             "\n"
                             "A call takes 0.1 ms: `docs/results/a.txt`.\n"   // 5: not in the file it names
                             "\n"
                             "It took 6 min 1 s, then 1.29..1.40x.\n";        // 7: in no file (361 s; 1.40)
    CHECK(stray_figures(page, "x.md", held, used) ==
          std::vector<std::string> {"5: '0.1 ms'", "7: '1.29..1.40x'", "7: '6 min 1 s'"});
}

TEST_CASE("docs: the scan finds figures as prose writes them")
{
    const auto found = [](const std::string& line) {
        std::vector<std::string> out;
        for (const auto& q : quoted_figures(line)) out.push_back(q.text);
        return out;
    };
    CHECK(found("it takes 15.2 ms, then 0.8 TB/s and 9.0 TFLOP/s") ==
          std::vector<std::string> {"15.2 ms", "0.8 TB/s", "9.0 TFLOP/s"});
    CHECK(found("1.45x the naive one, 2.5x more, blocks of 32x32, 8x8 tiles, 0x1f") ==
          std::vector<std::string> {"1.45x", " 2.5x"});
    CHECK(found("about 0.85 of a copy, 21% of CUB, 0.6 of cuBLAS") ==
          std::vector<std::string> {"21% of CUB", " 0.85 of a copy", " 0.6 of cuBLAS"});
    CHECK(found("threshold 0.5 of the tuned, 5% margin, n = 2^26, 3 times").empty());
    // Seconds, minutes and seconds, ranges, speed-ups in words; counts are no figures.
    CHECK(found("6 min 1 s, then 335 s; 1.29..1.38x; 1.5 to 4 times slower; 3.8 times the other; 127 times faster") ==
          std::vector<std::string> {"1.29..1.38x", "1.29..1.38x", "1.5 to 4 times slower", "1.5 to 4 times slower",
                                    "6 min 1 s", " 335 s", " 3.8 times", " 127 times faster"});
    CHECK(found("32 times the atomics, 8 times the grid, each input 7 times, 10 TB/s").size() == 1);
    const Quoted q = quoted_figures("2.38 TB/s").front();
    CHECK(q.value == doctest::Approx(2.38e12));
    CHECK(q.half_step == doctest::Approx(0.005e12));
    CHECK(prose_of("a <!-- figure: x y z w -->9 ms<!-- /figure --> b\n", "x.md").find("9 ms") == std::string::npos);
}

TEST_CASE("docs: each results file names its device and a commit of this repository")
{
    for (const auto& e : std::filesystem::directory_iterator(test::course_root() / "docs" / "results")) {
        if (e.path().extension() != ".json") continue;
        CAPTURE(e.path().filename().string());
        const BenchResults r = read_results_file(e.path());
        // bench-h100.json was measured on an H100.
        std::string gpu = r.header.gpu, stem = e.path().stem().string();
        std::transform(gpu.begin(), gpu.end(), gpu.begin(), [](unsigned char c) { return std::tolower(c); });
        REQUIRE(stem.rfind("bench-", 0) == 0);
        CHECK_MESSAGE(gpu.find(stem.substr(6)) != std::string::npos, "the file's name and its GPU differ: " << r.header.gpu);
        CHECK(r.header.complete);
        std::smatch m;
        REQUIRE_MESSAGE(std::regex_match(r.header.commit, m, std::regex("([0-9a-f]{7,40})(-dirty)?")),
                        "no commit in its header: " << r.header.commit);
        ProcessSpec git;
        git.argv = {"/usr/bin/env", "git", "-C", test::course_root().string(), "cat-file", "-e", m[1].str() + "^{commit}"};
        git.wall_limit_s = 20;
        const ProcessResult in_repo = run_process(git);
        if (!in_repo.exited() || in_repo.exit_code == 127) {
            MESSAGE("no git here: the commit is not looked up");
            continue;
        }
        // A copy without .git (a download) inside some other checkout would be
        // looked up in that one's history: only a checkout of this tree counts.
        git.argv = {"/usr/bin/env", "git", "-C", test::course_root().string(), "rev-parse", "--show-toplevel"};
        const ProcessResult top = run_process(git);
        std::error_code same_ec;
        if (top.exit_code != 0 ||
            !std::filesystem::equivalent(trimmed(top.out), test::course_root(), same_ec)) {
            MESSAGE("this tree is no git checkout of its own: the commit is not looked up");
            continue;
        }
        // A copy of the tree committed afresh (the GPU script's clean copy) or
        // a shallow clone holds no history to look the commit up in.
        git.argv = {"/usr/bin/env", "git", "-C", test::course_root().string(), "rev-parse", "--is-shallow-repository"};
        const bool shallow = run_process(git).out.rfind("true", 0) == 0;
        git.argv = {"/usr/bin/env", "git", "-C", test::course_root().string(), "rev-list", "--count", "HEAD"};
        if (shallow || std::atol(run_process(git).out.c_str()) <= 1) {
            MESSAGE("this checkout has none of the project's history: the commit is not looked up");
            continue;
        }
        CHECK_MESSAGE(in_repo.exit_code == 0, "not a commit of this repository: " << r.header.commit);
    }
}

TEST_CASE("docs: the rotation walkthrough's pictures are hpclab's images of labs/rotation/chelsea.pgm")
{
    namespace fs = std::filesystem;
    const fs::path figures = test::course_root() / "docs" / "figures";
    const GrayImage chelsea = read_pgm(test::course_root() / "labs" / "rotation" / "chelsea.pgm");
    CHECK_MESSAGE(read(figures / "rotation-input.png") == png_of(chelsea),
                  "redo: ./hpclab image labs/rotation/chelsea.pgm docs/figures/rotation-input.png");
    // The output is the GPU's (made on an H100 by scripts/gpu-suite.sh, part images): what the
    // solution wrote must still be the CPU reference's rotation, byte for byte once a PNG.
    const GrayImage rotated = reference_image(test::spec_of("rotation", "tiled"), chelsea);
    CHECK_MESSAGE(read(figures / "rotation-output.png") == png_of(rotated),
                  "redo on a GPU: PARTS=images scripts/gpu-suite.sh, then cp $OUT/rotation-output.png docs/figures/");
    const std::string doc = read(test::course_root() / "docs" / "rotation.md");
    CHECK(doc.find("](figures/rotation-input.png)") != std::string::npos);
    CHECK(doc.find("](figures/rotation-output.png)") != std::string::npos);
}

TEST_CASE("docs: the performance page says each lab's sweep as its lab.json gives it")
{
    // "n = 2^20 to 2^26", "1024 x 1024 to 8192 x 8192", "blocks = 1, threads = 1 to ...",
    // "its one size": the first and the last size.
    const auto value_text = [](std::int64_t n) {
        const int log2 = static_cast<int>(std::log2(static_cast<double>(n)));
        return (n & (n - 1)) == 0 && n >= 1 << 16 ? fmt::format("2^{}", log2) : std::to_string(n);
    };
    const auto size_text = [&](const Params& p) {
        if (p.empty()) return std::string("its one size");
        if (p.size() == 1 && p.count("n")) return value_text(p.at("n"));
        if (p.size() == 2 && p.count("width") && p.count("height"))
            return fmt::format("{} x {}", p.at("width"), p.at("height"));
        std::vector<std::string> parts;
        for (const auto& [name, value] : p) parts.push_back(fmt::format("{} = {}", name, value));
        return fmt::format("{}", fmt::join(parts, ", "));
    };
    const std::string page = read(test::course_root() / "docs" / "performance.md");
    for (const LabInfo* lab : labs_with_sweeps(test::catalog())) {
        const TaskInfo& task = *std::find_if(lab->tasks.begin(), lab->tasks.end(),
                                             [](const TaskInfo& t) { return !t.bench_sizes.empty(); });
        const Params& first = task.bench_sizes.front();
        const std::string sweep =
            task.bench_sizes.size() == 1
                ? fmt::format("{}: {}", lab->id, size_text(first))
                : fmt::format("{}: {}{} to {}", lab->id, first.size() == 1 && first.count("n") ? "n = " : "",
                              size_text(first), size_text(task.bench_sizes.back()));
        CHECK_MESSAGE(page.find(sweep) != std::string::npos, "docs/performance.md should say: " << sweep);
    }
}
