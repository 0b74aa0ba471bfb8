// What hpclab knows of a lab program from the file it built, not from what
// the program says when it runs: which kernels the student's code defines
// (their host-side launch stubs, read with nm), what their machine code
// does (cuobjdump -sass: run/sass.h), and whether the harness in it records
// a CUPTI trace. A trace that names a kernel the program does not
// contain, or that is missing where the harness records one, was written by
// something other than the harness.
#pragma once

#include "run/sass.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hpclab {

struct ProgramFacts {
    bool kernels_known = false;        // nm read the program
    std::vector<std::string> kernels;  // each kernel's launch stub, as nm names it (mangled)
    bool traced = false;               // the harness was linked with CUPTI
    bool code_known = false;           // cuobjdump read the program's machine code
    std::vector<KernelCode> code;      // every device function of it
    // Where each kernel's code comes from, by the line table nvcc wrote for
    // the build (keep_kernel_origins): the kernels whose definition lies
    // outside the student's file (a library's header, whatever its name or
    // namespace), mangled. Known only for a build hpclab compiled itself.
    bool origins_known = false;
    std::vector<std::string> foreign_kernels;

    // The machine code of the kernel CUPTI names `mangled`; null when unknown.
    const KernelCode* code_of(std::string_view mangled) const;

    // Whether the program contains the kernel CUPTI names `mangled` ("_Z4addPfS_S_i").
    bool defines_kernel(std::string_view mangled) const;
    // The kernels of a library compiled into the program, demangled, the
    // first few: those defined outside the student's file, and those whose
    // stubs name a library's namespace (CUB, Thrust, CUTLASS; all that is
    // known of a build whose line table was not kept).
    std::vector<std::string> library_kernels() const;
};

// The kernels of `program` from its symbols; kernels_known is false when nm
// cannot read it (then nothing is judged from them). Their machine code from
// `cuobjdump` (the toolkit's, beside nvcc); code_known is false without it,
// or when it cannot read the program.
ProgramFacts read_program_facts(const std::filesystem::path& program, bool traced,
                                const std::filesystem::path& cuobjdump = {});
// The machine code alone, into `facts`: from the listing kept beside
// `program` (keep_sass), else from cuobjdump of the program itself.
void read_program_code(ProgramFacts& facts, const std::filesystem::path& program,
                       const std::filesystem::path& cuobjdump);

// The kernel stubs among nm's output (one symbol per line, any format whose
// last field is the name). Exposed for the tests.
std::vector<std::string> kernel_stubs(std::string_view nm_output);

// The SASS listing of the student's kernels, kept beside `program` when it is
// built: cuobjdump of the object (its own kernels, a fraction of a second)
// rather than of the linked program (the harness, the runtime: over a
// second, in every check of a cached build too).
std::filesystem::path sass_of(const std::filesystem::path& program);
void keep_sass(const std::filesystem::path& object, const std::filesystem::path& program,
               const std::filesystem::path& cuobjdump);

// Each kernel (.entry) of a PTX listing and the file its definition is in:
// the file of its first line-table entry that is not inlined from another
// function. Kernels without a line table are left out. Exposed for the tests.
std::vector<std::pair<std::string, std::string>> kernel_origins(std::string_view ptx);

// The kernels defined outside `own_file` (the name the compile's #line gave
// the student's code), from the PTX nvcc kept in `keep_dir`, written beside
// `program` for read_program_facts. Nothing is written when no PTX is there.
void keep_kernel_origins(const std::filesystem::path& keep_dir, const std::string& own_file,
                         const std::filesystem::path& program);

}  // namespace hpclab
