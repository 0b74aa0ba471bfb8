// hpclab check for a lab of the kind "program" (course/lab_kind.h): the
// student's file is the whole program. It is built with the grader's fixed
// flags (no harness, no binding), run once in the sandbox with the GPU
// alone, right after hpclab's own timing program of the same kernel
// (run/kernel_timer.h); what it prints is judged against hpclab's own
// observations (check/program_judge.h). What the process does decides
// first: a crash, a CUDA error, a hang are verdicts before any line is read.
#pragma once

#include "check/lab_check.h"
#include "check/program_judge.h"
#include "gpu/gpu_probe.h"
#include "run/toolchain.h"

#include <filesystem>
#include <optional>
#include <string>

namespace hpclab {

struct ProgramCheck {
    const LabInfo* lab = nullptr;
    std::filesystem::path source;
    Verdict verdict = Verdict::grader_error;
    BuildResult build;
    std::string message;                       // why, where no judgement says it (a crash, a setup problem)
    std::string printed, printed_err;          // what the student's program wrote (as kept)
    std::optional<KernelTimes> measured;       // hpclab's own timing
    std::optional<ProgramJudgement> judgement; // when the program ran to its end
    double total_s = 0;
};

// `variant` names the build in the cache ("student", "solution", ...).
// `turns`: the GPU's turns shared with other checks (hpclab grade); null:
// the check takes its own, which hold across processes. `started`, when
// valid: the build of `source`, begun before (start_student_build).
ProgramCheck check_program_lab(const Toolchain& tc, const GpuInfo& gpu, const LabInfo& lab,
                               const std::filesystem::path& source, const std::string& variant,
                               GpuTurns* turns = nullptr, std::shared_future<StartedBuild> started = {});

// The same as every other lab's check reads (one task, its verdict and
// why): what check_lab returns for a program lab, so that a grading, its
// records, calibrate and watch take the lab as any other; the program's
// own check in its whole_program.
LabCheck as_lab_check(const ProgramCheck& c, const GpuInfo& gpu, std::uint64_t seed);

}  // namespace hpclab
