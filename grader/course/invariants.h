// The invariants every task of every lab is judged by, as one table: each is
// written once in the grader and holds for every task, whatever its lab;
// lab.json can only opt a task out of one, with a reason (its task's
// "opt_out": {"<name>": "<why>"}), which `hpclab list <lab>` shows. A new lab
// gets every invariant with no code of its own. What each one observes, and
// what it cannot see: docs/how-hpclab-checks.md, "The invariants".
#pragma once

#include "course/params.h"

#include <optional>
#include <span>
#include <string_view>

namespace hpclab {

enum class Invariant {
    // Everything a call makes (memory of every kind, host memory pinned in
    // place, streams, events, graphs, memory pools) it releases before it
    // returns, on every path: check/release_evidence.h, from the call's trace.
    releases,
    // No state carried from one call to the next: a task's sizes run in one
    // program in an order the program cannot predict, a size again after the
    // others, every call on fresh inputs and poisoned outputs (check/plan.h).
    no_state,
    // The student's own code does the work: no kernel of the program is
    // defined outside the student's file (check/evidence.cpp, from the
    // compile's line table, run/program_facts.h).
    own_code,
    // The device computes the whole result: a call copies back to the host
    // no more than its outputs that live on the host (check/evidence.cpp,
    // from the call's copy records).
    device_finishes,
    // Inputs over the whole range the contract allows: at a small size a
    // task also runs on inputs sorted up and down, and all at the bottom and
    // all at the top of the range its spec fills them from
    // (course/input_ends.h, check/plan.h).
    range_ends,
    // Every call computes on the GPU: it launches a kernel (check/evidence.cpp,
    // from the call's launch records). A refusal, whose contract is to launch
    // nothing, opts out and asks the lesson fact no_kernel instead.
    on_gpu,
};

// device_finishes: the bytes a call may copy back to the host past its
// outputs there, so that reading back a flag or a count is no finding. A
// host-finished sum copies back 4 bytes a block: past this at 65 blocks.
inline constexpr unsigned kCopyBackSpareBytes = 256;

struct InvariantInfo {
    Invariant id;
    std::string_view name;      // lab.json's key in "opt_out"
    std::string_view rule;      // what holds, for people
    std::string_view observed;  // what hpclab observes to judge it
};

std::span<const InvariantInfo> invariant_table();
const InvariantInfo& invariant_info(Invariant i);
std::optional<Invariant> invariant_from_name(std::string_view name);

// What a lesson's technique leaves in the evidence, named once for every lab:
// a task asks some (lab.json "expect": {"shows": [...]}), and every fact is
// observed the same way in every task that asks it (check/lesson_facts.h). A
// lab that teaches one names it; it adds no code. Where an invariant holds
// for every task unless opted out, a fact holds only where a task asks it.
enum class LessonFact {
    launch_2d,               // some launch has more than one row of blocks or of threads
    printf_in_kernel,        // a launched kernel calls printf
    shared_reads_in_loop,    // a launched kernel reads shared memory inside a loop
    no_device_malloc,        // the call allocates no device memory
    constant_bank_reads,     // a launched kernel reads the file's __constant__ variables
    pinned_copies,           // every copy between host and device is from or to pinned memory
    copies_overlap_kernels,  // a copy into the device runs while a kernel of another stream runs
    grid_fills_gpu_once,     // no launch has more than `blocks_per_sm` blocks per multiprocessor
    no_kernel,               // the call launches nothing (a refusal)
    shared_atomics,          // a launched kernel updates shared memory with an atomic (a private histogram)
};
inline constexpr std::size_t kLessonFacts = 10;  // each table of the facts has a row for each

// Where a fact is observed: a call's CUPTI trace, every launch of every call
// (with the GPU's multiprocessors), or the launched kernels' machine code
// (one program, whatever the size: no "from").
enum class ObservedIn { call_trace, launches, machine_code };

struct LessonFactInfo {
    LessonFact id;
    std::string_view name;      // lab.json's name in "shows"
    ObservedIn where;
    bool takes_blocks_per_sm;   // its entry needs "blocks_per_sm"
    std::string_view observed;  // what hpclab observes, for people
};

// One fact a task asks: lab.json's "shows" entry, a name or
// {"fact": name, "from": {<param>: <least>}, "blocks_per_sm": n}.
struct ShownFact {
    LessonFact fact {};
    Params from;            // asked at the sizes with each parameter at least its value; empty: every size
    int blocks_per_sm = 0;  // grid_fills_gpu_once's bound
};

std::span<const LessonFactInfo> lesson_fact_table();
const LessonFactInfo& lesson_fact_info(LessonFact f);
std::optional<LessonFact> lesson_fact_from_name(std::string_view name);
// True when `params` are among the sizes `shown.from` asks it at.
bool asked_at(const ShownFact& shown, const Params& params);

}  // namespace hpclab
