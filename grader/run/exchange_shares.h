// A program given several exchanges (a task's sizes, one after another in
// one process: run/task_runner.h run_tasks_together) prints one stream; the
// harness marks where each exchange starts ("<prefix>exchange-<e>@@",
// wire/exchange.h). This splits what the parent read back into each
// exchange's share, as if it had run alone.
#pragma once

#include "process/process.h"
#include "wire/exchange.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace hpclab {

// Each exchange's share: its own part of stdout and of the tagged lines, and
// how it ended (`results`: each exchange's result, read once the program's
// processes have all ended). Nothing (to be run again alone, in a fresh
// process) where the program cannot tell: an exchange that did not finish,
// unless the program was stopped at the time limit in it (timed out) or
// before it (cancelled); every exchange when the marks are out of turn (not
// the harness's) or the output was cut.
std::vector<std::optional<ProcessResult>> shares_of_exchanges(const ProcessResult& process, std::uint64_t marker,
                                                             const std::vector<const wire::Result*>& results);

}  // namespace hpclab
