// A lab's kind (lab.json "kind"): who writes main, and so how hpclab builds,
// runs and judges the student's file. This table is the one place the kinds
// differ; every other folder asks one of its questions, each named by what
// it decides, never the kind itself (cpu.budgets counts the questions asked
// outside course/). A new kind is a row here and the answers it gives.
#pragma once

#include <optional>
#include <string_view>

namespace hpclab {

enum class LabKind {
    functions,  // hpclab's harness calls the entry points of the lab's header
    program,    // the student's file is the whole program, main included
};

struct LabKindTraits {
    LabKind kind;
    std::string_view name;  // as lab.json writes it
    // What the student writes, for a person ("the functions of the lab's header").
    std::string_view student_writes;
    // run/toolchain: the student's object is linked with hpclab's harness and
    // the lab's binding (which must be built; nothing the two define may be
    // redefined). Else it is linked alone, and the calls it makes are read
    // from the program it became.
    bool harness_linked;
    // hpclab calls each task at sizes it chooses and judges every call
    // (run's rows and size options, selftest's runs, bench's variants, the
    // check's plan). Else the program runs once, whole, and what it prints
    // is judged against hpclab's own observations (check/program_check.h).
    bool tasks_at_sizes;
    // The thresholds are measured against a baseline program, compiled into
    // the student kit. Else hpclab times the lab's kernel itself, and the
    // kit carries no baseline (the solution would be it).
    bool baseline_program;
};

const LabKindTraits& lab_kind_traits(LabKind kind);
// The kind lab.json names, or none (an unknown name).
std::optional<LabKind> lab_kind_named(std::string_view name);
// "\"functions\" or \"program\"": for messages.
std::string_view lab_kind_names();

}  // namespace hpclab
