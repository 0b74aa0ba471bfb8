#include "check/feedback.h"

#include <fmt/format.h>

namespace hpclab {

std::string likely_bug(const LabInfo& lab, Verdict v, const Finding&)
{
    const auto it = lab.feedback.find(std::string(verdict_name(v)));
    std::string text = it != lab.feedback.end() ? it->second : std::string(verdict_info(v).advice);
    const VerdictClass kind = verdict_info(v).kind;
    if (kind != VerdictClass::grader && v != Verdict::inconclusive && v != Verdict::suspicious)
        text += fmt::format(" Stuck? hpclab hint {}", lab.id);
    return text;
}

}  // namespace hpclab
