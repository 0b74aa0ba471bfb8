#include "grade/gradescope_fields.h"

#include "util/escape.h"

#include <cmath>
#include <set>

namespace hpclab {

namespace {

double whole_ms(double seconds) { return std::round(seconds * 1000) / 1000; }

}  // namespace

void add_gradescope_fields(nlohmann::json& results, const Gradebook& book, const BookRow& row, const CellResults& cells,
                           const Leaderboard& board)
{
    nlohmann::json& tests = results.at("tests");
    double seconds = 0;
    std::set<const LabResult*> counted;  // a lab's check once, however many tasks it has
    for (std::size_t i = 0; i < book.columns.size() && i < tests.size(); ++i) {
        const LabResult* lab = cells.of(row.cells[i]);
        if (!lab) continue;
        tests[i]["extra_data"] = {{"execution_time", whole_ms(lab->total_s)}, {"check_of_lab", lab->lab}};
        if (counted.insert(lab).second) seconds += lab->total_s;
    }
    results["execution_time"] = whole_ms(seconds);
    nlohmann::json entries = gradescope_leaderboard(board, row.student);
    if (entries.empty()) return;  // a student ranked nowhere is not on Gradescope's leaderboard either
    results["leaderboard"] = std::move(entries);
    results["output"] = results.value("output", std::string()) + "\n" + for_json(leaderboard_feedback(board, row.student));
}

}  // namespace hpclab
