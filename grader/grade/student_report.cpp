#include "grade/student_report.h"

#include "grade/lateness.h"
#include "util/escape.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

std::string number(double x) { return fmt::format("{:g}", x); }

// A path of the class folder ("ada/labs/x.cu") as the student knows it ("labs/x.cu").
std::string in_own_folder(const std::filesystem::path& p)
{
    std::filesystem::path out;
    for (auto it = std::next(p.begin()); it != p.end(); ++it) out /= *it;
    return out.empty() ? p.string() : out.string();
}

std::string refused_text(const BookCell& cell)
{
    std::string out = "Nothing of yours was graded for this lab: the files meant for it could not be taken as they are.\n\n";
    for (const Ignored& g : cell.refused) out += "- " + for_markdown(in_own_folder(g.path)) + ": " + for_markdown(g.why) + "\n";
    return out + "\nFix what is said above, then hand the file in again.\n";
}

// The cell in a student's words: the verdict, why, where, what to look at.
std::string cell_text(const BookCell& cell)
{
    switch (cell.state) {
    case BookCell::State::not_submitted: return "No file was handed in for this lab.\n";
    case BookCell::State::refused: return refused_text(cell);
    case BookCell::State::skeleton: return "The file handed in is the skeleton as it was given out: nothing to grade.\n";
    case BookCell::State::not_graded: return "Not graded yet (hpclab will grade it on its next run).\n";
    case BookCell::State::graded: break;
    }
    const TaskResult& t = *cell.result;
    std::string out = fmt::format("**{}**{}\n", verdict_title(t.verdict), t.where.empty() ? "" : " at " + for_markdown(t.where));
    if (!t.message.empty()) out += "\n" + markdown_code_block(t.message);
    if (!t.hint.empty()) out += "\nWhat to look at: " + t.hint + "\n";
    if (t.speedup && t.threshold)
        out += fmt::format("\nSpeed: {:.2f}x the baseline; {:.2f}x was needed.\n", *t.speedup, *t.threshold);
    if (!t.profile.empty()) out += "\nThe profiler (Nsight Compute): " + for_markdown(t.profile) + "\n";
    if (held_for_a_person(t.verdict)) out += "\nYour instructor looks at this one before it counts.\n";
    return out;
}

// Gradescope's test number: the lab's number in the course, then the task's within the lab ("11.2": matmul's tiled).
std::string test_number(const BookColumn& col)
{
    const auto& tasks = col.lab->tasks;
    const auto at = std::find_if(tasks.begin(), tasks.end(), [&](const TaskInfo& t) { return t.id == col.task->id; });
    return fmt::format("{}.{}", col.lab->order, at - tasks.begin() + 1);
}

}  // namespace

std::string feedback_markdown(const Gradebook& book, const BookRow& row)
{
    std::string out = fmt::format("# {}: {} of {} points\n\n", for_markdown(row.student), number(row.total), number(row.max));
    out += "| lab | task | verdict | points |\n|---|---|---|---|\n";
    for (std::size_t i = 0; i < book.columns.size(); ++i)
        out += fmt::format("| {} | {} | {} | {} / {} |\n", book.columns[i].lab->id, book.columns[i].task->id,
                           cell_verdict(row.cells[i]), number(row.cells[i].earned), number(book.columns[i].points));
    if (row.late && row.late->days > 0) out += "\n" + for_markdown(lateness_text(row)) + "\n";
    for (std::size_t i = 0; i < book.columns.size(); ++i) {
        const BookColumn& col = book.columns[i];
        out += fmt::format("\n## {} / {}: {}\n\n{}", col.lab->id, col.task->id, col.task->title, cell_text(row.cells[i]));
    }
    out += "\nRun `hpclab check <lab>` on your own file to see the same checks, and `hpclab hint <lab>` for hints.\n";
    return out;
}

nlohmann::json gradescope_results(const Gradebook& book, const BookRow& row)
{
    nlohmann::json tests = nlohmann::json::array();
    for (std::size_t i = 0; i < book.columns.size(); ++i) {
        const BookColumn& col = book.columns[i];
        const BookCell& cell = row.cells[i];
        const bool passed = cell.result && cell.result->verdict == Verdict::pass;
        tests.push_back({{"name", for_json(fmt::format("{} / {}: {}", col.lab->id, col.task->id, col.task->title))},
                         {"number", test_number(col)},
                         {"score", cell.earned},
                         {"max_score", col.points},
                         {"status", passed ? "passed" : "failed"},
                         {"output", for_json(cell_text(cell))},
                         {"output_format", "md"},
                         {"tags", {cell_verdict(cell)}},
                         {"visibility", "visible"}});
    }
    return {{"score", row.total},
            {"output", fmt::format("hpclab: {} of {} points. Each test below is one task of a lab.", number(row.total),
                                   number(row.max))},
            {"output_format", "md"},
            {"visibility", "visible"},
            {"tests", tests}};
}

}  // namespace hpclab
