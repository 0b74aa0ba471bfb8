// hpclab reset: the lab's file back to the course's skeleton (lab.json's skeleton_blob, or as committed in git),
// after a backup of the student's version that nothing ever overwrites.
#include "commands.h"

#include "student/committed_file.h"
#include "student/state_dir.h"
#include "util/atomic_file.h"
#include "util/text_file.h"

#include <fmt/format.h>

namespace hpclab::cli {

namespace fs = std::filesystem;

int cmd_reset(Context& ctx, const std::string& lab_id)
{
    const LabInfo& lab = ctx.lab(lab_id);
    const fs::path& root = ctx.catalog().root();
    const fs::path file = lab.student_source();
    const std::string shown = relative_to_root(ctx, file);
    bool from_course = false;
    const auto skeleton = course_skeleton(root, lab, from_course);
    if (!skeleton)
        throw UsageError(fmt::format("cannot reset {}: git has no committed version of {} in {} (not a git "
                                     "checkout, or git is not installed), so there is no skeleton to restore. "
                                     "Nothing was changed.",
                                     lab.id, shown, root.string()));

    const auto current = read_text_file(file);
    if (current == skeleton) {
        fmt::print("{} is already the skeleton: nothing to do.\n", shown);
        return kPass;
    }
    if (!current) {
        write_file_atomically(file, *skeleton);
        fmt::print("{} was missing: restored the skeleton (there was nothing to back up).\n", shown);
        return kPass;
    }
    const fs::path backup = write_backup(root, lab, *current);
    write_file_atomically(file, *skeleton);
    fmt::print("Your version of {} is saved as {}\n{} is the skeleton again, {}.\n", shown,
               relative_to_root(ctx, backup), shown,
               from_course ? "as the course ships it" : "as committed in git (this lab names no course skeleton)");
    return kPass;
}

}  // namespace hpclab::cli
