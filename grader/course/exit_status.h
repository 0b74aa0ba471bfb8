// hpclab's exit statuses, the same for every command, and the two errors
// that end a command with one of them. A check's verdict maps to one of them
// through the verdict table (verdict.h).
#pragma once

#include <stdexcept>

namespace hpclab {

enum Exit : int {
    kPass = 0,          // everything checked passed
    kFail = 1,          // a check failed (wrong answer, crash, compile error, ...)
    kUsage = 2,         // bad command line or input file: nothing was run
    kGraderError = 4,   // hpclab itself could not do its job: not the student's fault
    kSkipped = 77,      // no GPU (or no CUDA compiler): nothing could be judged
};

// Of two exit statuses, the one that says more is wrong (grader error >
// usage > fail > skip > pass): a command of several runs exits with it.
inline int worse_exit(int a, int b)
{
    const auto rank = [](int e) { return e == kGraderError ? 4 : e == kUsage ? 3 : e == kFail ? 2 : e == kSkipped ? 1 : 0; };
    return rank(a) >= rank(b) ? a : b;
}

// A bad command line or input: printed as one clear message, exit 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The machine or hpclab's build cannot do what was asked (a folder it cannot
// write, a compiler option nvcc refuses): never the student's fault, exit 4.
struct SetupError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace hpclab
