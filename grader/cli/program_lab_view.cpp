#include "program_lab_view.h"

#include "view/check_view.h"

#include <fmt/format.h>

namespace hpclab::cli {

int check_program(Context& ctx, const LabInfo& lab, const std::filesystem::path& source, const std::string& variant)
{
    const ProgramCheck c = check_program_lab(ctx.toolchain(), ctx.gpu(), lab, source, variant);
    print_program_check(ctx.catalog().root(), c);
    return verdict_info(c.verdict).exit_status;
}

void refuse_program_lab(const LabInfo& lab, const std::string& command, const std::string& instead)
{
    throw UsageError(fmt::format("{} is a lab where you write the whole program (main included): hpclab {} does not "
                                 "apply to it. {}",
                                 lab.id, command, instead));
}

}  // namespace hpclab::cli
