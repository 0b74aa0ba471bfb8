#include "student/committed_file.h"

#include "process/process.h"
#include "util/git_blob.h"
#include "util/text_file.h"

#include <sstream>

namespace hpclab {

namespace {

// What git prints for `args` in `repo`, or nothing when it fails.
std::optional<std::string> git_output(const std::filesystem::path& repo, const std::vector<std::string>& args)
{
    ProcessSpec git;
    // safe.directory: reading a checkout that another user owns (a copy on a
    // GPU machine, a shared course folder) is harmless, and git refuses it otherwise.
    git.argv = {"/usr/bin/env", "git", "-c", "safe.directory=*", "-C", repo.string()};
    git.argv.insert(git.argv.end(), args.begin(), args.end());
    git.wall_limit_s = 20;
    git.output_limit = 16 << 20;
    const ProcessResult r = run_process(git);
    if (!r.exited() || r.exit_code != 0 || r.out_truncated) return std::nullopt;
    return r.out;
}

}  // namespace

std::optional<std::string> committed_content(const std::filesystem::path& repo, const std::filesystem::path& relative)
{
    return git_output(repo, {"show", "HEAD:" + relative.generic_string()});
}

std::optional<std::string> course_skeleton(const std::filesystem::path& repo, const LabInfo& lab, bool& from_course)
{
    from_course = false;
    if (lab.skeleton_blob.empty()) return committed_content(repo, lab.student_source().lexically_relative(repo));
    if (auto blob = git_output(repo, {"cat-file", "blob", lab.skeleton_blob})) {
        from_course = true;
        return blob;
    }
    // No git, or a copy without history (a release tarball, git archive):
    // the file in labs/ is the course's own when its blob id is lab.json's.
    if (auto file = read_text_file(lab.student_source()); file && git_blob_id(*file) == lab.skeleton_blob) {
        from_course = true;
        return file;
    }
    return committed_content(repo, lab.student_source().lexically_relative(repo));
}

std::string checkout_commit(const std::filesystem::path& repo)
{
    auto head = git_output(repo, {"rev-parse", "--short=12", "HEAD"});
    if (!head) return "";
    while (!head->empty() && (head->back() == '\n' || head->back() == '\r')) head->pop_back();
    const auto changes = git_output(repo, {"status", "--porcelain", "--untracked-files=no"});
    return *head + (changes && !changes->empty() ? "-dirty" : "");
}

std::vector<std::string> changed_tracked_files(const std::filesystem::path& repo)
{
    std::vector<std::string> files;
    const auto status = git_output(repo, {"status", "--porcelain", "--untracked-files=no"});
    if (!status) return files;
    std::istringstream lines(*status);
    for (std::string line; std::getline(lines, line);) {
        if (line.size() < 4) continue;
        std::string path = line.substr(3);  // after "XY "
        if (const auto arrow = path.find(" -> "); arrow != std::string::npos) path = path.substr(arrow + 4);
        files.push_back(path);
    }
    return files;
}

}  // namespace hpclab
