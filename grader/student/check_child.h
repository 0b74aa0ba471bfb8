// `hpclab check <lab>` run by watch as a child of this very program (the
// same build, the same course folder), its output going straight to ours so
// that the student sees a long build or run as it happens.
#pragma once

#include <filesystem>
#include <string>

namespace hpclab {

struct ChildStatus {
    bool started = false;
    std::string start_error;  // why it could not start
    int exit_code = -1;       // when it exited
    int signal = 0;           // when a signal ended it
};

// Its standard input is /dev/null: the keys typed meanwhile are for watch.
ChildStatus run_check_child(const std::filesystem::path& course_root, const std::string& lab);

// "exit status 1 (a check failed)", "killed by segmentation fault (SIGSEGV)", ...
std::string describe(const ChildStatus& status);

}  // namespace hpclab
