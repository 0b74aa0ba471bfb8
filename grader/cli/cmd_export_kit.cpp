// hpclab export-student-kit: parse, call kit/, print.
#include "commands.h"

#include "kit/student_kit.h"

#include <fmt/format.h>

namespace hpclab::cli {

int cmd_export_kit(Context& ctx, const std::string& out, const std::string& architectures)
{
    if (out.empty()) throw UsageError("export-student-kit needs a folder for the kit");
    KitOptions o {.out = std::filesystem::absolute(out), .architectures = architectures,
                  .say = [](const std::string& line) { fmt::print("  {}\n", line), std::fflush(stdout); }};
    fmt::print("Writing the student kit into {}\n", o.out.string());
    KitResult r;
    try {
        r = export_student_kit(ctx.toolchain(), ctx.catalog(), o);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
    fmt::print("Kit written: {} files of the course, {} speed baselines compiled for {}{}.\n", r.files,
               r.baselines.size(), architectures, r.committed ? ", one git commit" : "");
    for (const std::string& b : r.baselines) fmt::print("  baseline {}\n", b);
    for (const std::string& w : r.warnings) fmt::print("warning: {}\n", w);
    fmt::print("In it, students run ./setup, then ./hpclab list. Hand it out as it is (push it, or archive it).\n");
    return r.warnings.empty() ? kPass : kFail;
}

}  // namespace hpclab::cli
