// hpclab's exit statuses, the same for every command. A check's verdict
// maps to one of them through the verdict table (verdict.h).
#pragma once

namespace hpclab {

enum Exit : int {
    kPass = 0,          // everything checked passed
    kFail = 1,          // a check failed (wrong answer, crash, compile error, ...)
    kUsage = 2,         // bad command line or input file: nothing was run
    kGraderError = 4,   // hpclab itself could not do its job: not the student's fault
    kSkipped = 77,      // no GPU (or no CUDA compiler): nothing could be judged
};

}  // namespace hpclab
