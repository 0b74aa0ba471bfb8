// What /proc/<pid>/stat says of a process: its name, state and parent.
// Hand-written: no library reads them. The name sits in parentheses and may
// hold spaces and parentheses itself, so the fields after it start after
// the last ')'.
#pragma once

#include <optional>
#include <string>

namespace hpclab {

struct ProcStat {
    std::string name;  // the command's name (comm), as the kernel keeps it
    char state = '?';  // R, S, D, Z (a zombie), X (dead), ...
    int parent = 0;
};

// Nothing when there is no such process (or it could not be read).
std::optional<ProcStat> proc_stat(int pid);

}  // namespace hpclab
