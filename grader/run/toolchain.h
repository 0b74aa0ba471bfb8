// Building a lab program: the student's (or the reference) .cu compiled by
// nvcc with flags the grader fixes, linked with the harness (the program's
// main) and the lab's binding. Builds are cached by the hash of everything
// that goes into them.
#pragma once

#include "course/lab_catalog.h"
#include "run/program_facts.h"

#include <filesystem>
#include <future>
#include <set>
#include <string>
#include <vector>

namespace hpclab {

struct Toolchain {
    std::filesystem::path nvcc;
    std::filesystem::path host_compiler;
    std::filesystem::path harness_lib;
    std::filesystem::path bind_lib_dir;
    std::filesystem::path common_include;
    std::filesystem::path cupti_lib_dir;  // empty: the harness traces nothing
    std::filesystem::path cuda_lib_dir;   // the toolkit's libraries (cuBLAS, ...) for benchmark variants
    std::filesystem::path cuobjdump;      // beside nvcc; empty: the kernels' machine code is not read
    std::string nvcc_version;
    std::filesystem::path cache_dir;
    std::string architectures;  // CMake style: "90" or "75;80;86;89;90;100;120"
    std::string unavailable;    // why no lab can be built here, else empty

    // The toolchain this hpclab was configured with.
    static Toolchain configured();
    bool available() const { return unavailable.empty(); }

    std::vector<std::string> arch_flags() const;
    // Everything but the source and output: fixed by the grader, the same for
    // the student's code and the reference.
    std::vector<std::string> compile_flags(const LabInfo& lab) const;
};

struct BuildResult {
    bool ok = false;
    std::filesystem::path program;
    std::string diagnostics;  // the compiler's messages, trimmed
    bool cached = false;      // nothing changed since the last build
    // Not the source's fault: the machine, the build of hpclab, its options
    // (a folder that cannot be written, an architecture nvcc does not know).
    bool setup_problem = false;
    double seconds = 0;
    std::string command;      // the compile command, for the record
    ProgramFacts facts;       // read from the program built (its kernels)
    // Valid while the SASS of the student's kernels is still being read
    // (BuildOptions::sass_in_background): facts.code is filled by
    // complete_program_code().
    std::shared_future<void> sass_pending;
    // A whole program's (course/lab_kind.h, not harness_linked): what the object calls
    // outside itself (nm's undefined symbols), kept beside the program.
    std::set<std::string> calls;
};

// The name of `source`'s build in the cache: "student" and "solution" for
// the lab's two files, the speed baseline's id for it, and for any other
// file "file-<stem>-<hash of its absolute path>": two files of the same
// name never share a program.
std::string build_name(const LabInfo& lab, const std::filesystem::path& source);

// `variant` names the build in the cache ("student", "solution").
// `link_libraries` ("cublas") are libraries of the CUDA toolkit a benchmark
// variant calls: linked from the toolkit's folder, found there at run time.
// Students' and solutions' builds take none.
// `sass_in_background`: the SASS of the student's kernels (cuobjdump, about
// half a second on the H100) is read beside whatever the caller does next,
// and complete_program_code() waits for it: a check's first runs need the
// program, not its machine code, which only its evidence reads.
BuildResult build_lab_program(const Toolchain& tc, const LabInfo& lab, const std::filesystem::path& source,
                              const std::string& variant, const std::vector<std::string>& link_libraries = {},
                              bool sass_in_background = false);
// The machine code into r.facts once its background read is done (nothing
// to do when none is pending).
void complete_program_code(const Toolchain& tc, BuildResult& r);

// `source` alone compiled into `object` with `tc`'s flags, without the
// sandbox (the course's own files: the student kit's speed baselines, which
// build_lab_program links as they are, a source ending in .o). False, with
// the compiler's messages in `diagnostics`, when it does not compile.
bool compile_lab_object(const Toolchain& tc, const LabInfo& lab, const std::filesystem::path& source,
                        const std::filesystem::path& object, std::string& diagnostics);

// The linker arguments for `link_libraries`, or the reason they cannot be
// linked (a library that is not in the toolkit's folder) in `error`.
std::vector<std::string> toolkit_link_flags(const Toolchain& tc, const std::vector<std::string>& link_libraries,
                                            std::string& error);

// Arch list "75;80;90-real;all" as nvcc flags.
std::vector<std::string> nvcc_arch_flags(const std::string& architectures);

// The compiler's output with the build folder's paths shortened and long
// output cut to `max_lines`, saying how much was cut.
std::string trim_diagnostics(const std::string& text, const std::filesystem::path& root, std::size_t max_lines);

}  // namespace hpclab
