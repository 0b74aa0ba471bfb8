#include "course/mistakes_table.h"

#include "util/text.h"

#include <fmt/format.h>

namespace hpclab {

std::string mistakes_markdown(const LabInfo& lab)
{
    std::string out = "| the mistake | what makes it fail | verdict | what the check says |\n|---|---|---|---|\n";
    for (const Mistake& m : lab.mistakes) {
        const std::string mistake =
            lab.tasks.size() > 1 ? fmt::format("{} (task `{}`, `{}.cu`)", m.did, m.task, m.id)
                                 : fmt::format("{} (`{}.cu`)", m.did, m.id);
        out += fmt::format("| {} | {} | `{}` | {} |\n", markdown_cell(mistake), markdown_cell(m.fails_at), m.verdict,
                           markdown_cell(m.message));
    }
    return out;
}

}  // namespace hpclab
