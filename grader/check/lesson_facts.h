// How each lesson fact (course/invariants.h, LessonFact) is observed: one
// table, one row a fact, each written once for every task that asks it. The
// callers hand over what they hold (a call's trace, one launch, the launched
// kernels' machine code) and word the place; the rows say what is missing
// and why, in the lesson's terms. A new lab names facts in its lab.json.
#pragma once

#include "course/lab_catalog.h"
#include "course/verdict.h"
#include "run/sass.h"
#include "wire/exchange.h"

#include <span>
#include <string>
#include <vector>

namespace hpclab {

// What one observation sees; which members are set follows the facts'
// ObservedIn (call_trace: trace; launches: launch and sm_count;
// machine_code: code).
struct FactScene {
    const LaunchExpectation& expect;
    Params params;                                  // the size (call_trace, launches)
    const wire::CallTrace* trace = nullptr;         // call_trace: the call's
    const wire::KernelRecord* launch = nullptr;     // launches: one launch of a call
    int sm_count = 0;                               // launches: counted by hpclab; 0 unknown
    std::span<const KernelCode* const> code;        // machine_code: each launched kernel's
    // For the messages: the call's first launch described (call_trace), this
    // launch described (launches), the first kernel named with its line
    // (machine_code).
    std::string named;
};

struct MissingFact {
    LessonFact fact {};
    Verdict verdict {};
    std::string why;
    // The GPU's other work could have made the call miss it (a pipeline
    // whose copies ran beside none of its kernels: other contexts' time
    // slices): such a run is made again with the GPU alone before it stands.
    bool load_can_bend = false;
};

// A launch's blocks, its grid's three dimensions multiplied (CUPTI's are
// signed ints; a launch has at least one block in each).
std::uint64_t blocks_of(const wire::KernelRecord& k);

// The facts observed in `where` that the task asks (at this size) and the
// scene does not show, in lab.json's order.
std::vector<MissingFact> missing_facts(ObservedIn where, const FactScene& scene);

}  // namespace hpclab
