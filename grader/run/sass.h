// What a lab program's kernels do, read from their machine code (SASS, as
// `cuobjdump -sass` lists it) rather than from the source text, which may
// say one thing and compile to another: whether a kernel calls printf,
// whether it reads shared memory, and whether it does so inside a loop,
// whether its warps combine their registers (shuffles, warp reductions).
// Pure functions over the listing's text: the tests feed them listings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

struct KernelCode {
    std::string name;                   // mangled, as CUPTI and nm name it
    bool prints = false;                // calls vprintf: device printf
    bool calls_unnamed = false;         // a call whose callee the listing does not name
    bool reads_shared = false;          // a shared-memory load (LDS, LDSM) that can execute
    bool reads_shared_in_loop = false;  // one of them between a backward branch and its target
    bool generic_loads = false;         // LD through a generic pointer: may be shared memory too
    // An operand in constant bank 3, where the file's __constant__ variables
    // are (its object's section .nv.constant3; bank 0 holds the parameters):
    // "FFMA R0, R0, R3, c[0x3][0x4]", "LDC R2, c[0x3][R0]", "ULDC UR4, c[0x3][0x0]".
    bool reads_user_constants = false;
    // The threads of a warp combine their registers: a shuffle (SHFL.DOWN from
    // __shfl_down_sync, any SHFL) or a warp reduction (REDUX, sm_80 and up:
    // __reduce_add_sync, cooperative groups' reduce, or the compiler's own
    // aggregation of atomics on one address, the same idea done for the student).
    bool reduces_in_warp = false;
    bool atomics_on_shared = false;     // an atomic on shared memory (ATOMS) that can execute
    bool generic_atomics = false;       // an atomic through a generic pointer (ATOM): may be on shared memory
    std::vector<std::string> callees;   // the functions it calls by name (vprintf aside)
};

// Every function of the listing, once: a function compiled for several
// architectures is merged (a fact holds if it holds for any of them), and
// what a function's callees do, it does (a printf in a __device__ helper).
std::vector<KernelCode> parse_sass(std::string_view listing);

}  // namespace hpclab
