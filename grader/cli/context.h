// What every hpclab command needs: the labs' metadata, the toolchain, the
// GPU (asked once, lazily), and the exit statuses.
#pragma once

#include "check/lab_run.h"
#include "course/exit_status.h"
#include "gpu/gpu_probe.h"
#include "course/lab_catalog.h"
#include "run/toolchain.h"

#include <optional>
#include <string>
#include <vector>

namespace hpclab::cli {

// Exit statuses, and UsageError and SetupError: course/exit_status.h (the
// verdict table maps verdicts to them).

class Context {
public:
    // Throws CourseConfigError when the course's config cannot be used.
    explicit Context(const std::filesystem::path& root);

    // The labs, each threshold the one in effect: lab.json's, or the course
    // config's (course/course_config.h), read when the context is made.
    const Catalog& catalog() const { return catalog_; }
    // Another course config's thresholds in place of the default one's (grade --config).
    void use_course_thresholds(const CourseThresholds& thresholds, const std::filesystem::path& file)
    {
        catalog_.use_course_thresholds(thresholds, file);
    }
    const Toolchain& toolchain() const { return toolchain_; }
    BuildSite build_site() const { return {toolchain_, catalog_.root()}; }
    const GpuInfo& gpu();
    // The lab named on the command line, or a UsageError that lists the labs.
    const LabInfo& lab(const std::string& id) const;
    // Why a command judged nothing (exit 77) when the GPU and the compiler
    // were there: ctest's summary says it (main.cpp, note_skip).
    void skip_because(std::string why) { skip_reason_ = std::move(why); }
    const std::string& skip_reason() const { return skip_reason_; }

private:
    Catalog catalog_;
    Toolchain toolchain_;
    std::optional<GpuInfo> gpu_;
    std::string skip_reason_;
};

// What a test's check or grade needs of this machine besides a GPU
// (--needs sandbox, --needs cgroup: its verdict holds only with them), or
// the first need that is not met, in a sentence.
std::optional<std::string> unmet_need(const std::vector<std::string>& needs);

// `p` as the messages name it: relative to the course's folder where it is inside it.
std::string relative_to_root(const Context& ctx, const std::filesystem::path& p);

// The course's folder: $HPCLAB_ROOT, else the one this hpclab was built from.
std::filesystem::path course_root();

}  // namespace hpclab::cli
