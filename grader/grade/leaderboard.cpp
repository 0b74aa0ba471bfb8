#include "grade/leaderboard.h"

#include "util/escape.h"
#include "util/git_blob.h"
#include "util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

namespace hpclab {

using nlohmann::json;

namespace {

// The parent's times of one task of a check, and the GPU they were taken on.
struct ParentTimes {
    std::vector<double> student_ms;
    std::string gpu;
};

// From the check's grade record (check/grade_record.cpp); the reason in
// `why` when it holds none to rank by.
std::optional<ParentTimes> parent_times(const LabResult& r, const std::string& task, std::string& why)
{
    try {
        for (const json& t : r.record.at("tasks")) {
            if (t.at("task") != task) continue;
            if (!t.contains("timing")) break;
            const json& timing = t.at("timing");
            if (timing.value("unreliable", false)) {
                why = "its timing was disturbed";
                return std::nullopt;
            }
            ParentTimes p {timing.at("student_ms").get<std::vector<double>>(),
                           fmt::format("{}, CUDA driver {}", r.record.at("gpu").at("name").get<std::string>(),
                                       r.record.at("gpu").at("driver_cuda").get<std::string>())};
            if (p.student_ms.empty()) break;
            return p;
        }
        why = "its grade record holds no timed call of this task";
    } catch (const json::exception& e) {
        why = std::string("its grade record cannot be read (") + e.what() + ")";
    }
    return std::nullopt;
}

void rank_entries(std::vector<LeaderboardEntry>& entries)
{
    for (LeaderboardEntry& e : entries)
        e.rank = 1 + static_cast<int>(std::count_if(entries.begin(), entries.end(),
                                                    [&](const LeaderboardEntry& o) { return o.high_ms < e.low_ms; }));
    std::sort(entries.begin(), entries.end(), [](const LeaderboardEntry& a, const LeaderboardEntry& b) {
        return std::tie(a.rank, a.shown) < std::tie(b.rank, b.shown);
    });
    for (LeaderboardEntry& e : entries)
        e.tied = std::count_if(entries.begin(), entries.end(),
                               [&](const LeaderboardEntry& o) { return o.rank == e.rank; }) > 1;
}

std::string rank_text(const LeaderboardEntry& e) { return fmt::format("{}{}", e.rank, e.tied ? "=" : ""); }

std::string times_text(const LeaderboardEntry& e)
{
    return fmt::format("{:.4g} ms (middle half of {} calls: {:.4g} to {:.4g})", e.median_ms, e.calls, e.low_ms, e.high_ms);
}

}  // namespace

std::string leaderboard_pseudonym(const std::string& student, std::uint64_t course_seed)
{
    return "p-" + sha1_hex(fmt::format("hpclab leaderboard\n{}\n{}", course_seed, student)).substr(0, 10);
}

Leaderboard make_leaderboard(const Gradebook& book, const CellResults& cells, std::uint64_t course_seed,
                             const std::string& names)
{
    Leaderboard board {.names = names};
    if (names == "off") return board;
    for (std::size_t i = 0; i < book.columns.size(); ++i) {
        if (!book.columns[i].task->threshold) continue;
        std::map<std::string, std::vector<LeaderboardEntry>> by_gpu;
        for (const BookRow& row : book.rows) {
            const BookCell& cell = row.cells[i];
            const LabResult* lab = cells.of(cell);
            if (!lab || cell.result->verdict != Verdict::pass) continue;
            const std::string shown = names == "ids" ? row.student : leaderboard_pseudonym(row.student, course_seed);
            std::string why;
            const auto times = parent_times(*lab, cell.result->task, why);
            if (!times) {
                board.unranked.push_back(fmt::format("{}, {}: {}", shown, book.columns[i].name(), why));
                continue;
            }
            by_gpu[times->gpu].push_back({.student = row.student, .shown = shown,
                                          .median_ms = median(times->student_ms),
                                          .low_ms = quantile(times->student_ms, 0.25),
                                          .high_ms = quantile(times->student_ms, 0.75),
                                          .calls = times->student_ms.size()});
        }
        for (auto& [gpu, entries] : by_gpu) {
            rank_entries(entries);
            board.tables.push_back({book.columns[i].name(), gpu, std::move(entries)});
        }
    }
    return board;
}

std::string leaderboard_markdown(const Leaderboard& board)
{
    std::string out = "\n## Leaderboard\n\n";
    if (board.names == "off") return out + "Off (the course config's \"leaderboard\" is \"off\").\n";
    out += "Speed among the files that passed each timed task (a pass: correct on every graded input and fast "
           "enough), from hpclab's own clock around each timed call, one table per GPU and driver. A file is "
           "ahead of another only when its upper quartile is below the other's lower quartile; its rank is 1 + "
           "the files ahead of it, and files of the same rank are tied (=), listed by name. ";
    out += board.names == "ids" ? "Students are named by their ids.\n"
                                : "Students are named by pseudonyms; each one's feedback.md names their own.\n";
    if (board.tables.empty()) out += "\nNo file passed a timed task.\n";
    for (const LeaderboardTable& t : board.tables) {
        out += fmt::format("\n### {} on {}\n\n| rank | student | median ms | middle half ms | timed calls |\n"
                           "|---|---|---|---|---|\n",
                           for_markdown(t.task), for_markdown(t.gpu));
        for (const LeaderboardEntry& e : t.entries)
            out += fmt::format("| {} | {} | {:.4g} | {:.4g} to {:.4g} | {} |\n", rank_text(e), for_markdown(e.shown),
                               e.median_ms, e.low_ms, e.high_ms, e.calls);
    }
    if (!board.unranked.empty()) {
        out += "\nPassed, but not ranked:\n\n";
        for (const std::string& u : board.unranked) out += "- " + for_markdown(u) + "\n";
    }
    return out;
}

std::string leaderboard_feedback(const Leaderboard& board, const std::string& student)
{
    std::string places, shown;
    for (const LeaderboardTable& t : board.tables)
        for (const LeaderboardEntry& e : t.entries)
            if (e.student == student) {
                shown = e.shown;
                places += fmt::format("- {}: rank {} of {}{} on {}; {}\n", for_markdown(t.task), e.rank, t.entries.size(),
                                      e.tied ? " (tied: within the noise of another file's time)" : "",
                                      for_markdown(t.gpu), times_text(e));
            }
    if (places.empty()) return "";
    const std::string who = board.names == "ids" ? "by your id" : "as **" + for_markdown(shown) + "**";
    return "\n## Leaderboard\n\nOn the class's leaderboard you are listed " + who + ":\n\n" + places;
}

json gradescope_leaderboard(const Leaderboard& board, const std::string& student)
{
    json entries = json::array();
    for (const LeaderboardTable& t : board.tables)
        for (const LeaderboardEntry& e : t.entries)
            if (e.student == student) {
                entries.push_back({{"name", for_json(t.task + " rank")}, {"value", e.rank}, {"order", "asc"}});
                entries.push_back({{"name", for_json(t.task + " time")}, {"value", for_json(times_text(e))}});
                entries.push_back({{"name", for_json(t.task + " GPU")}, {"value", for_json(t.gpu)}});
            }
    return entries;
}

}  // namespace hpclab
