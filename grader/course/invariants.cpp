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
};

constexpr bool table_in_enum_order()
{
    for (std::size_t i = 0; i < kTable.size(); ++i)
        if (static_cast<std::size_t>(kTable[i].id) != i) return false;
    return true;
}
static_assert(table_in_enum_order(), "kTable lists the invariants in the order of enum Invariant");

}  // namespace

std::span<const InvariantInfo> invariant_table() { return kTable; }

const InvariantInfo& invariant_info(Invariant i) { return kTable[static_cast<std::size_t>(i)]; }

std::optional<Invariant> invariant_from_name(std::string_view name)
{
    for (const InvariantInfo& row : kTable)
        if (row.name == name) return row.id;
    return std::nullopt;
}

}  // namespace hpclab
