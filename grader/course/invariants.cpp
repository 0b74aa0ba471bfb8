#include "course/invariants.h"

#include <array>

namespace hpclab {

namespace {

constexpr std::array kTable = {
    InvariantInfo {Invariant::releases, "releases",
                   "everything a call makes it releases before it returns, on every path (a refusal too)",
                   "the CUPTI records of the call: every allocation of device, managed and pinned memory, and the "
                   "runtime's and driver's functions that make and destroy streams, events, graphs, executable "
                   "graphs, memory pools and host registrations; and, kept the same way, what the program's global "
                   "objects made before main and still held when it began"},
    InvariantInfo {Invariant::no_state, "no_state",
                   "no call depends on an earlier one: sizes in an order the program cannot predict, one size "
                   "twice",
                   "the outputs of each call, made from fresh inputs into poisoned outputs, in one program that "
                   "runs the task's sizes in an order drawn from the check's seed"},
    InvariantInfo {Invariant::own_code, "own_code",
                   "the student's own kernels do the work: none of the program's kernels is defined outside the "
                   "student's file, whatever its name or namespace",
                   "the compile's PTX line table: the file each kernel's code comes from (a library's templates, "
                   "CUB's and Thrust's, come from their headers)"},
    InvariantInfo {Invariant::device_finishes, "device_finishes",
                   "the device computes the whole result: a call copies back to the host no more than its outputs "
                   "on the host (a few hundred bytes to spare: a flag, a count)",
                   "the CUPTI records of the call's copies from the device to the host, against the bytes of the "
                   "task's outputs that the contract puts in host memory"},
    InvariantInfo {Invariant::range_ends, "range_ends",
                   "right over the whole range of values the contract allows: inputs sorted up or down, every "
                   "element at the bottom or at the top of its range",
                   "the outputs of calls at one of the task's small sizes whose inputs hpclab sorted, or set to the ends of "
                   "the range its spec draws them from, in the same program as the random ones"},
    InvariantInfo {Invariant::on_gpu, "on_gpu", "every call computes on the GPU: it launches at least one kernel",
                   "the CUPTI launch records of the call, and the kernels the build's program defines (none: "
                   "nothing of the file can run on the GPU); a refusal, which launches nothing, opts out and asks "
                   "the lesson fact no_kernel"},
};


constexpr std::array kFacts = {
    LessonFactInfo {LessonFact::launch_2d, "launch_2d", ObservedIn::call_trace, false,
                    "the CUPTI launch records of the call: some launch with more than one row of blocks or of "
                    "threads (dim3 grid and blocks)"},
    LessonFactInfo {LessonFact::printf_in_kernel, "printf_in_kernel", ObservedIn::machine_code, false,
                    "the launched kernels' machine code: a call of printf (vprintf), or of a function the listing "
                    "does not name"},
    LessonFactInfo {LessonFact::shared_reads_in_loop, "shared_reads_in_loop", ObservedIn::machine_code, false,
                    "the launched kernels' machine code: a load from shared memory inside a loop (each step of a "
                    "tiled computation reads the tile it loaded)"},
    LessonFactInfo {LessonFact::no_device_malloc, "no_device_malloc", ObservedIn::call_trace, false,
                    "the CUPTI records of the call: no device memory allocated (the data lives in __device__ "
                    "variables, allocated when the program is loaded)"},
    LessonFactInfo {LessonFact::constant_bank_reads, "constant_bank_reads", ObservedIn::machine_code, false,
                    "the launched kernels' machine code: a read of the constant bank that holds the file's "
                    "__constant__ variables"},
    LessonFactInfo {LessonFact::pinned_copies, "pinned_copies", ObservedIn::call_trace, false,
                    "the CUPTI copy records of the call: every copy between host and device from or to pinned "
                    "host memory"},
    LessonFactInfo {LessonFact::copies_overlap_kernels, "copies_overlap_kernels", ObservedIn::call_trace, false,
                    "the CUPTI copy and launch records of the call: some copy into the device that ran while a "
                    "kernel of another stream ran"},
    LessonFactInfo {LessonFact::grid_fills_gpu_once, "grid_fills_gpu_once", ObservedIn::launches, true,
                    "the CUPTI launch records of every call, against the multiprocessors hpclab counted on the GPU: "
                    "no launch with more than blocks_per_sm blocks per multiprocessor (a grid-stride loop)"},
    LessonFactInfo {LessonFact::no_kernel, "no_kernel", ObservedIn::call_trace, false,
                    "the CUPTI launch records of the call: no launch at all (a refusal's call returns before any)"},
    LessonFactInfo {LessonFact::shared_atomics, "shared_atomics", ObservedIn::machine_code, false,
                    "the launched kernels' machine code: an atomic on shared memory (ATOMS), or one through a "
                    "generic pointer, which may be shared"},
};

template <class Table>
constexpr bool in_enum_order(const Table& table)
{
    for (std::size_t i = 0; i < table.size(); ++i)
        if (static_cast<std::size_t>(table[i].id) != i) return false;
    return true;
}
static_assert(in_enum_order(kTable), "kTable lists the invariants in the order of enum Invariant");
static_assert(in_enum_order(kFacts) && kFacts.size() == kLessonFacts,
              "kFacts lists every lesson fact in the order of enum LessonFact");

}  // namespace

std::span<const LessonFactInfo> lesson_fact_table() { return kFacts; }

const LessonFactInfo& lesson_fact_info(LessonFact f) { return kFacts[static_cast<std::size_t>(f)]; }

std::optional<LessonFact> lesson_fact_from_name(std::string_view name)
{
    for (const LessonFactInfo& row : kFacts)
        if (row.name == name) return row.id;
    return std::nullopt;
}

bool asked_at(const ShownFact& shown, const Params& params)
{
    for (const auto& [name, least] : shown.from) {
        const auto it = params.find(name);
        if (it == params.end() || it->second < least) return false;
    }
    return true;
}

std::span<const InvariantInfo> invariant_table() { return kTable; }

const InvariantInfo& invariant_info(Invariant i) { return kTable[static_cast<std::size_t>(i)]; }

std::optional<Invariant> invariant_from_name(std::string_view name)
{
    for (const InvariantInfo& row : kTable)
        if (row.name == name) return row.id;
    return std::nullopt;
}

}  // namespace hpclab
