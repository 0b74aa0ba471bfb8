// No process a run starts outlives it, even without a sandbox: hpclab is its
// descendants' reaper (PR_SET_CHILD_SUBREAPER), so a process that leaves its
// parent (setsid, a double fork) becomes hpclab's child, and every child of
// hpclab that is no program it is running is ended. (The sandbox's pid
// namespace and the run's cgroup end them first where there are those.)
#pragma once

#include <sys/types.h>

namespace hpclab {

// fork(), with the child known as one of hpclab's programs until forget_child().
pid_t fork_program();
void forget_child(pid_t pid);

// Every child of hpclab that is not one of its programs: killed and reaped.
// Returns how many there were.
int end_orphans();

}  // namespace hpclab
