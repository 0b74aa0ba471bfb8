#include "grade/class_report.h"

#include "grade/threshold_audit.h"
#include "grade/top_bugs.h"
#include "util/escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace hpclab {

namespace {

std::vector<const BookColumn*> timed_columns(const Gradebook& book)
{
    std::vector<const BookColumn*> out;
    for (const BookColumn& c : book.columns)
        if (c.task->threshold) out.push_back(&c);
    return out;
}

}  // namespace

std::string class_folder_count(const ClassFolder& cls)
{
    std::size_t skeletons = 0;
    for (const Student& s : cls.students)
        for (const Submission& sub : s.submissions) skeletons += sub.unchanged_skeleton;
    const std::size_t ignored = cls.ignored.size() + cls.left_alone.size();
    return fmt::format("{} entries: {} to grade, {}{} ignored{}.", cls.entries(), cls.submissions() - skeletons,
                       skeletons ? fmt::format("{} the skeleton as handed out, ", skeletons) : "", ignored,
                       cls.left_alone.empty() ? "" : fmt::format(" ({} of them not .cu files, left alone)", cls.left_alone.size()));
}

namespace {

// The students a late penalty or late days apply to, as gradebook.csv has them
// (the rules: docs/instructors.md, "Lateness"); nothing when the book shows no lateness.
std::string lateness_section(const Gradebook& book)
{
    if (!book.shows_lateness) return "";
    std::string out = "\n## Lateness\n\nPoints before and after the late penalty (gradebook.csv's total and final); "
                      "lateness changes no verdict.\n\n";
    int late = 0;
    for (const BookRow& r : book.rows) {
        if (!r.late || r.late->days <= 0) continue;
        if (late++ == 0) out += "| student | days late | penalty | total | final | why |\n|---|---|---|---|---|---|\n";
        out += fmt::format("| {} | {:g} | {:g} | {:g} | {:g} | {} |\n", for_markdown(r.student), r.late->days,
                           r.late->penalty, r.total, r.final_points(), for_markdown(r.late->why));
    }
    if (late == 0) out += "No student is late.\n";
    return out;
}

}  // namespace

std::string class_report_markdown(const ClassFolder& cls, const Gradebook& book, const std::vector<LabResult>& results)
{
    std::string out = fmt::format("# Class report\n\n{} students in {}; {} entries ignored (listed below).\n",
                                  cls.students.size(), for_markdown(cls.root.string()), cls.ignored.size());

    out += "\n## Pass rates\n\n| task | points | pass | graded | handed in | verdicts |\n|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < book.columns.size(); ++i) {
        int pass = 0, graded = 0, handed = 0;
        std::map<std::string, int> verdicts;
        for (const BookRow& r : book.rows) {
            const BookCell& c = r.cells[i];
            if (c.state != BookCell::State::not_submitted) ++handed;
            if (c.state == BookCell::State::graded) ++graded;
            if (c.result && c.result->verdict == Verdict::pass) ++pass;
            if (c.state != BookCell::State::not_submitted) ++verdicts[cell_verdict(c)];
        }
        std::string vs;
        for (const auto& [v, n] : verdicts) vs += fmt::format("{}{} {}", vs.empty() ? "" : ", ", v, n);
        out += fmt::format("| {} | {:g} | {} | {} | {} | {} |\n", book.columns[i].name(), book.columns[i].points, pass,
                           graded, handed, vs);
    }

    out += top_bugs_markdown(book);

    out += "\n## Speedups\n\n![each student's speedup against the baseline, the threshold in red](speedups.svg)\n";
    out += threshold_audit_markdown(book);

    out += "\n## Held for a person\n\nVerdicts that do not become marks unseen: what the program claimed "
           "contradicts what hpclab saw (tampering), a sandbox limit, a speed hpclab could not call or found "
           "impossible, a grader error, a file not graded yet.\n\n";
    int held = 0;
    for (const BookRow& r : book.rows)
        for (std::size_t i = 0; i < book.columns.size(); ++i) {
            const BookCell& c = r.cells[i];
            const bool hold = c.state == BookCell::State::not_graded || (c.result && held_for_a_person(c.result->verdict));
            if (!hold) continue;
            if (held++ == 0) out += "| student | task | verdict | why |\n|---|---|---|---|\n";
            out += fmt::format("| {} | {} | {} | {} |\n", for_markdown(r.student), book.columns[i].name(), cell_verdict(c),
                               for_markdown(cell_message(c)));
        }
    if (held == 0) out += "None.\n";
    out += lateness_section(book);

    out += "\n## Ignored\n\n";
    if (cls.ignored.empty()) out += "Nothing.\n";
    for (const Ignored& g : cls.ignored) out += fmt::format("- {}: {}\n", for_markdown(g.path.string()), for_markdown(g.why));
    if (!cls.left_alone.empty()) {
        out += fmt::format("\n{} files that are not .cu were left alone:\n\n", cls.left_alone.size());
        for (const auto& p : cls.left_alone) out += "- " + for_markdown(p.string()) + "\n";
    }
    out += "\n" + class_folder_count(cls) + "\n";

    double compile = 0, runs = 0, sanitizer = 0, timing = 0, total = 0;
    std::map<std::string, int> gpus;
    for (const LabResult& r : results) {
        compile += r.compile_s, runs += r.run_s, sanitizer += r.sanitizer_s, timing += r.timing_s, total += r.total_s;
        ++gpus[r.gpu.empty() ? "no GPU" : r.gpu];
    }
    std::string on;
    for (const auto& [g, n] : gpus) on += fmt::format("{}{} ({} files)", on.empty() ? "" : ", ", g, n);
    out += fmt::format("\n## Grading time\n\n{} files checked on {}: compile {:.0f} s, correctness runs {:.0f} s, "
                       "sanitizer {:.0f} s, timing {:.0f} s ({:.0f} s of checks in all, summed over checks that "
                       "ran side by side).\n",
                       results.size(), on.empty() ? "nothing" : on, compile, runs, sanitizer, timing, total);
    return out;
}

std::string speedups_svg(const Gradebook& book)
{
    const auto columns = timed_columns(book);
    const double left = 150, width = 520, row_h = 34, top = 30;
    const double lo = std::log10(0.01), hi = std::log10(100.0);
    const auto x_of = [&](double ratio) {
        const double l = std::clamp(std::log10(std::max(ratio, 1e-9)), lo, hi);
        return left + (l - lo) / (hi - lo) * width;
    };
    const double height = top + row_h * std::max<std::size_t>(columns.size(), 1) + 40;
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" font-family=\"sans-serif\" "
        "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        "<text x=\"{:.0f}\" y=\"18\">speedup against the baseline (log scale); red: the threshold</text>\n",
        left + width + 30, height, left);
    for (double tick : {0.01, 0.1, 1.0, 10.0, 100.0}) {
        const double x = x_of(tick);
        svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.0f}\" x2=\"{0:.1f}\" y2=\"{2:.0f}\" stroke=\"#ddd\"/>"
                           "<text x=\"{0:.1f}\" y=\"{3:.0f}\" text-anchor=\"middle\">{4:g}x</text>\n",
                           x, top, height - 30, height - 14, tick);
    }
    if (columns.empty())
        svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\">no timed task in this class</text>\n", left, top + 20);
    for (std::size_t k = 0; k < columns.size(); ++k) {
        const BookColumn& col = *columns[k];
        const double y = top + row_h * k + row_h / 2;
        svg += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"end\">{}</text>\n", left - 8, y + 4, for_svg(col.name()));
        svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.0f}\" x2=\"{0:.1f}\" y2=\"{2:.0f}\" stroke=\"red\" "
                           "stroke-width=\"2\"/>\n",
                           x_of(col.task->threshold->min_speedup), y - 12, y + 12);
        const std::size_t i = static_cast<std::size_t>(&col - book.columns.data());
        int n = 0;
        for (const BookRow& r : book.rows) {
            const TaskResult* t = r.cells[i].result;
            if (!t || !t->speedup) continue;
            // Students side by side in a small vertical jitter, so that equal speedups stay visible.
            svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\" fill-opacity=\"0.7\"><title>{}: "
                               "{:.2f}x</title></circle>\n",
                               x_of(*t->speedup), y + ((n++ % 5) - 2) * 3.0,
                               t->verdict == Verdict::pass ? "#2a7" : "#c63", for_svg(r.student), *t->speedup);
        }
    }
    return svg + "</svg>\n";
}

}  // namespace hpclab
