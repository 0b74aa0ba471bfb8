#include "student/progress_view.h"

#include "course/verdict.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

// The verdict's title for people; a name this hpclab does not know (a newer
// one wrote it) is shown as it is.
std::string title_of(const std::string& verdict_name)
{
    if (const auto v = verdict_from_name(verdict_name)) return std::string(verdict_title(*v));
    return verdict_name;
}

bool last_check_failed(const LabProgress& p)
{
    if (p.last_verdict.empty()) return false;
    const auto v = verdict_from_name(p.last_verdict);
    return !v || is_failure(*v);
}

}  // namespace

std::string progress_mark(const LabProgress* p)
{
    if (p && p->solved) return "[x]";
    if (p && last_check_failed(*p)) return "[!]";
    return "[ ]";
}

std::string progress_line(const LabInfo& lab, const LabProgress* p)
{
    std::string standing;
    if (!p || p->last_verdict.empty()) standing = p && p->solved ? "solved" : "not tried yet";
    else if (p->last_verdict == verdict_name(Verdict::pass)) standing = "solved";
    else if (p->solved) standing = "solved once; last check: " + title_of(p->last_verdict);
    else if (last_check_failed(*p)) standing = "last check failed: " + title_of(p->last_verdict);
    else standing = "last check: " + title_of(p->last_verdict);
    const int hints = p ? std::min<int>(p->hints_shown, static_cast<int>(lab.hints.size())) : 0;
    return fmt::format("{}; hints used: {} of {}", standing, hints, lab.hints.size());
}

std::string progress_bar(const Catalog& catalog, const Progress& progress)
{
    std::size_t solved = 0;
    for (const auto& lab : catalog.labs())
        if (const LabProgress* p = progress.find(lab.id); p && p->solved) ++solved;
    const std::size_t total = catalog.labs().size();
    return fmt::format("[{}{}] {} of {} labs solved", std::string(solved, '#'), std::string(total - solved, '.'),
                       solved, total);
}

const LabInfo* first_unsolved(const Catalog& catalog, const Progress& progress)
{
    for (const auto& lab : catalog.labs())
        if (const LabProgress* p = progress.find(lab.id); !p || !p->solved) return &lab;
    return nullptr;
}

}  // namespace hpclab
