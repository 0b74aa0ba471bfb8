// What a lab program claims against what hpclab saw itself. Everything the
// program writes into the exchange (calls done, the CUPTI trace, times) is
// written from inside the student's process, so the student's code can
// write it too. The parent believes a claim only as far as it can check it:
// - a call is done only once the parent read the harness's end-of-call
//   line (wire::tag_prefix) for it, in order;
// - a trace must be there wherever the harness records one, and name only
//   kernels of the program hpclab built (program_facts.h);
// - the times claimed must fit what the parent measured between a call's
//   begin and end lines.
// A claim that contradicts these makes the run `tampered`. (Code inside the
// process could still forge the lines themselves at the right moments: the
// checks make a forgery a deliberate, visible piece of work, no more.)
#pragma once

#include "process/process.h"
#include "wire/exchange.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hpclab {

struct RunRequest;
struct RunReport;

// The calls the parent saw begin and end, from the program's tagged lines.
struct SeenCalls {
    std::uint32_t ended = 0;       // calls 0..ended-1 each began then ended, in order
    std::vector<double> observed_ms;  // per ended call: from its begin line to its end line
    bool out_of_order = false;     // a line for a call out of turn (not the harness's doing)
};

SeenCalls seen_calls(const std::vector<TaggedLine>& lines, std::uint64_t marker, std::uint32_t ncalls);

// The harness's begin and end lines taken out of what the program printed
// (what the student's code printed is judged without them).
std::string without_call_lines(const std::string& out, std::uint64_t marker);

// Why the program's claims do not hold, or nothing. `report` has the calls
// judged and the status from the process's end.
std::optional<std::string> contradicted_claim(const RunRequest& req, const wire::Result& result,
                                              const SeenCalls& seen, const RunReport& report);

}  // namespace hpclab
