// A student's object may not define what the rest of the program defines.
//
// The lab program is the student's object linked with the harness (main,
// the calls, the trace), the lab's binding, the CUDA runtime, CUPTI and the
// C/C++ libraries. A definition in the student's object of a symbol one of
// those defines replaces it silently: a file that defines `main` never links
// the harness's, one that defines the trace's hooks never links the trace,
// one that defines `clock_gettime` moves the harness's clock. So before the
// link, the object's global symbols (nm) are checked against the program's
// other parts, and such a file is refused as a compile error that names the
// symbol. From the object, not the source text: whatever spelling produced it.
//
// What is allowed: a weak definition that the other part also defines weak
// (the same inline function or template instance from the same header, as
// std::vector<int> in both), and a name a library defines but nothing else in
// the program refers to (a global variable that happens to be called `random`).
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

// What the student's object is linked with (the harness, the CUDA runtime,
// CUPTI: run/toolchain's Toolchain says where each is), and where the
// symbols they define are cached.
struct LinkParts {
    std::filesystem::path host_compiler;
    std::filesystem::path harness_lib;
    std::filesystem::path cuda_lib_dir;   // empty: no runtime's symbols read
    std::filesystem::path cupti_lib_dir;  // empty: no CUPTI's
    std::filesystem::path cache_dir;
};

// One global symbol an object or library defines (nm's letters: weak is
// W, V, w or v; u, a unique global, counts as strong).
struct SymbolDefinition {
    std::string name;
    bool weak = false;
};

// The defined global symbols in nm's output (any of its formats whose
// last two fields are the type letter and the name, or "name type ..." with
// -P); undefined ones are skipped.
std::vector<SymbolDefinition> defined_symbols(std::string_view nm_output);
// The undefined symbols in nm's output (type U, w or v without a value).
std::set<std::string> undefined_symbols(std::string_view nm_output);

// The rest of the program, by who defines what.
struct ProgramSymbols {
    std::set<std::string> harness_strong, harness_weak;  // the harness and the lab's binding
    std::set<std::string> runtime_strong, runtime_weak;  // the CUDA runtime (static) and CUPTI
    std::set<std::string> library_strong, library_weak;  // the C/C++ libraries (their dynamic symbols)
    // What the harness, the binding, the runtime and the libraries refer to:
    // a definition of one of these in the student's object is what they get.
    std::set<std::string> referenced;
};

struct SymbolConflict {
    enum class Owner { main, harness, runtime, library };
    std::string name;  // as nm spells it (mangled)
    Owner owner = Owner::harness;
};

// The student's definitions that would replace a part of the program.
std::vector<SymbolConflict> conflicting_definitions(const std::vector<SymbolDefinition>& student,
                                                    const ProgramSymbols& rest);

// The refusal in a student's words, one paragraph per symbol (the first few).
std::string explain_conflicts(const std::vector<SymbolConflict>& conflicts);

// The rest of the program as `tc` links it with `bind_lib`, read once per
// (harness, binding) with nm; nullopt when nm cannot read the harness.
std::optional<ProgramSymbols> program_symbols(const LinkParts& tc, const std::filesystem::path& bind_lib);

// Why `object` cannot be linked into a lab program, or nothing. A setup
// problem (nm missing, an unreadable object) is said in `setup_error`.
std::optional<std::string> link_refusal(const LinkParts& tc, const std::filesystem::path& object,
                                        const std::filesystem::path& bind_lib, std::string& setup_error);

// What `object` calls outside itself (its undefined symbols): a program
// lab's technique (check/program_judge.h). Nothing when nm cannot read it.
std::optional<std::set<std::string>> object_calls(const std::filesystem::path& object);

}  // namespace hpclab
