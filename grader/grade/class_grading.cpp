#include "grade/class_grading.h"

#include "grade/class_report.h"
#include "grade/class_similarity.h"
#include "grade/gradescope_fields.h"
#include "grade/leaderboard.h"
#include "intake/class_source.h"
#include "grade/lateness.h"
#include "grade/student_report.h"
#include "similarity/similarity_report.h"
#include "util/text_file.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <stdexcept>

namespace hpclab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path settings_file(const GradeFolder& out) { return out.root() / "grading.json"; }

// A chunk has answered for a file when a result of this very content exists
// that is not hpclab's own failure (the verdict's class grader). Not the same
// as final: a node without a GPU answers not_run, held in the book and redone
// by the next run, but its chunk ran to its end and is not submitted again.
bool answered(const std::map<std::pair<std::string, std::string>, const LabResult*>& results, const std::string& student,
              const Submission& sub)
{
    const auto r = results.find({student, sub.lab->id});
    return r != results.end() && r->second->content_hash == sub.content_hash && r->second->covered &&
           verdict_info(r->second->overall).kind != VerdictClass::grader;
}

}  // namespace

std::optional<GradingSettings> read_settings(const GradeFolder& out)
{
    const auto text = read_text_file(settings_file(out));
    if (!text) return std::nullopt;
    try {
        const json j = json::parse(*text);
        GradingSettings s;
        s.submissions = j.at("submissions").get<std::string>();
        s.seed = j.at("seed").get<std::uint64_t>();
        s.config = j.value("config", "");
        s.roster = j.value("roster", "");
        s.roster_keys = j.value("roster_keys", std::vector<std::string> {});
        s.chunks = j.value("chunks", 0);
        return s;
    } catch (const json::exception& e) {
        throw std::runtime_error(settings_file(out).string() + ": not hpclab's grading settings (" + e.what() + ")");
    }
}

void write_settings(const GradeFolder& out, const GradingSettings& s)
{
    const json j = {{"submissions", s.submissions.string()}, {"seed", s.seed},   {"config", s.config.string()},
                    {"roster", s.roster.string()},           {"roster_keys", s.roster_keys}, {"chunks", s.chunks}};
    write_file_atomically(settings_file(out), j.dump(2) + "\n");
}

std::vector<const Student*> students_of_chunk(const ClassFolder& cls, int k, int chunks)
{
    std::vector<const Student*> out;
    const std::size_t n = cls.students.size();
    const std::size_t begin = n * k / chunks, end = n * (k + 1) / chunks;
    for (std::size_t i = begin; i < end; ++i) out.push_back(&cls.students[i]);
    return out;
}

PendingJobs pending_jobs(const GradeFolder& out, const std::vector<const Student*>& students, std::uint64_t course_seed,
                         bool again)
{
    PendingJobs jobs;
    for (const Student* s : students)
        for (const Submission& sub : s->submissions) {
            if (sub.unchanged_skeleton) continue;
            const std::uint64_t seed = submission_seed(course_seed, s->id, sub.lab->id);
            const GradeJob job {s->id, s->folder, &sub, seed};
            const auto done = out.load(s->id, sub.lab->id);
            const bool stands = !again && done && done->final() && done->content_hash == sub.content_hash && done->seed == seed;
            if (!stands) jobs.to_check.push_back(job);
            else if (!done->covered) jobs.uncovered.push_back(job);
        }
    return jobs;
}

ClassOutputs write_class_outputs(const GradeFolder& out, const ClassFolder& cls, const std::vector<LabResult>& results,
                                 const Catalog& catalog, const GradingConfig& config, const GradingSettings& settings)
{
    ClassOutputs o {.book = make_gradebook(cls, results, catalog, config), .results = results.size()};
    const LatenessPolicy& late = config.lateness;
    o.lateness_unknown = apply_lateness(o.book, late, late.students.empty() ? std::map<std::string, StudentDeadline> {}
                                                                            : read_student_deadlines(late.students),
                                        kept_lms_students(out.root()));
    std::optional<Roster> roster;
    if (!settings.roster.empty()) {
        roster = read_roster(settings.roster, settings.roster_keys.empty() ? config.roster_keys : settings.roster_keys);
        std::vector<std::string> ids;
        for (const Student& s : cls.students) ids.push_back(s.id);
        o.roster_match = match_roster(*roster, ids);
    }
    write_file_atomically(out.root() / "gradebook.csv",
                          gradebook_csv(o.book, roster ? &*roster : nullptr, o.roster_match ? &*o.roster_match : nullptr));
    write_file_atomically(out.root() / "verdicts.csv", verdicts_csv(o.book));
    const std::vector<LabSimilarity> similar = class_similarity(cls, catalog);  // flags for a person, grades nothing
    write_file_atomically(out.root() / "similarity.csv", similarity_csv(similar));
    const CellResults cells(results);
    const Leaderboard board = make_leaderboard(o.book, cells, settings.seed, config.leaderboard);
    write_file_atomically(out.root() / "report.md", class_report_markdown(cls, o.book, results) +
                                                       similarity_markdown(similar) + leaderboard_markdown(board));
    write_file_atomically(out.root() / "speedups.svg", speedups_svg(o.book));
    for (const BookRow& row : o.book.rows) {
        write_file_atomically(out.student_dir(row.student) / "feedback.md",
                              feedback_markdown(o.book, row) + leaderboard_feedback(board, row.student));
        json gradescope = gradescope_results(o.book, row);
        add_gradescope_fields(gradescope, o.book, row, cells, board);
        write_file_atomically(out.student_dir(row.student) / "results.json",
                              gradescope.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
    }
    return o;
}

std::vector<LabResult> results_of_chunks(const GradeFolder& out, int chunks, std::vector<std::string>* unreadable)
{
    std::map<std::pair<std::string, std::string>, LabResult> by_key;
    const auto take = [&](const GradeFolder& f) {
        for (LabResult& r : f.all_results(unreadable)) {
            auto& slot = by_key[{r.student, r.lab}];
            if (slot.student.empty() || (!slot.final() && r.final())) slot = std::move(r);  // a final one wins
        }
    };
    take(out);
    for (int k = 0; k < chunks; ++k) take(GradeFolder(out.chunk_dir(k)));
    std::vector<LabResult> all;
    for (auto& [key, r] : by_key) all.push_back(std::move(r));
    return all;
}

std::vector<int> incomplete_chunks(const ClassFolder& cls, const std::vector<LabResult>& results, int chunks)
{
    std::map<std::pair<std::string, std::string>, const LabResult*> by_key;
    for (const LabResult& r : results) by_key[{r.student, r.lab}] = &r;
    std::vector<int> out;
    for (int k = 0; k < chunks; ++k) {
        bool complete = true;
        for (const Student* s : students_of_chunk(cls, k, chunks))
            for (const Submission& sub : s->submissions)
                if (!sub.unchanged_skeleton && !answered(by_key, s->id, sub)) complete = false;
        if (!complete) out.push_back(k);
    }
    return out;
}

MergedChunks merge_chunks(const GradeFolder& out, const ClassFolder& cls, const Catalog& catalog,
                          const GradingConfig& config, const GradingSettings& settings)
{
    MergedChunks m;
    std::vector<std::string> unreadable;
    m.results = results_of_chunks(out, settings.chunks, &unreadable);
    m.outputs = write_class_outputs(out, cls, m.results, catalog, config, settings);
    m.outputs.unreadable = std::move(unreadable);
    m.incomplete = incomplete_chunks(cls, m.results, settings.chunks);
    return m;
}

}  // namespace hpclab
