#include "course/lab_kind.h"

#include <array>

namespace hpclab {

namespace {

constexpr std::array<LabKindTraits, 2> kKinds {{
    {.kind = LabKind::functions,
     .name = "functions",
     .student_writes = "the functions of the lab's header",
     .harness_linked = true,
     .tasks_at_sizes = true,
     .baseline_program = true},
    {.kind = LabKind::program,
     .name = "program",
     .student_writes = "the whole program, main included",
     .harness_linked = false,
     .tasks_at_sizes = false,
     .baseline_program = false},
}};

}  // namespace

const LabKindTraits& lab_kind_traits(LabKind kind)
{
    for (const LabKindTraits& k : kKinds)
        if (k.kind == kind) return k;
    return kKinds.front();  // every enumerator has its row (the test of the table says so)
}

std::optional<LabKind> lab_kind_named(std::string_view name)
{
    for (const LabKindTraits& k : kKinds)
        if (k.name == name) return k.kind;
    return std::nullopt;
}

std::string_view lab_kind_names() { return "\"functions\" or \"program\""; }

}  // namespace hpclab
