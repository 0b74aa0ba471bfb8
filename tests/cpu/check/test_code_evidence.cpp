// Technique from the compiled code: the kernels' machine code as
// `cuobjdump -sass` lists it (run/sass.h), and what check makes of it
// against the lesson (check/code_evidence.h). The listings below follow the
// layout cuobjdump prints (a "Function :" line, then one "/*addr*/ OPCODE
// operands ;" line per instruction with its encoding, the encoding's second
// half on the next line) and nvdisasm's (".text.<name>:" and ".L_x_N:"
// labels); where cuobjdump is installed beside nvcc, the last tests read
// real listings of programs hpclab builds.
#include "check/code_evidence.h"
#include "check/evidence.h"
#include "evidence_support.h"
#include "run/sass.h"
#include "run/toolchain.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

using namespace hpclab;
using namespace hpclab::test;

namespace {

// hello's kernel (printf), an empty kernel, a stencil that reads its cache
// once, a tiled loop that reads shared memory inside its loop, a kernel that
// only stores into shared memory, beside the padding loads "@!PT LDS" that
// never run.
const char* const kListing = R"SASS(
Fatbin elf code:
================
arch = sm_90
code version = [1,8]
host = linux
compile_size = 64bit

	code for sm_90
		Function : _Z9say_hellov
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */
                                                                           /* 0x000fe40000000800 */
        /*0010*/                   S2R R8, SR_TID.X ;                      /* 0x0000000000087919 */
                                                                           /* 0x000e220000002100 */
        /*0020*/                   MOV R4, 32@lo($str) ;                   /* 0x0000000000047802 */
                                                                           /* 0x000fe20000000f00 */
        /*0030*/                   CALL.ABS.NOINC `(vprintf) ;             /* 0x0000000000007943 */
                                                                           /* 0x000fea0003c00000 */
        /*0040*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
        /*0050*/                   BRA 0x50;                               /* 0xfffffffc00fc7947 */
                                                                           /* 0x000fc0000383ffff */
		..........

		Function : _Z5emptyv
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
        /*0010*/                   BRA 0x10;                               /* 0xfffffffc00fc7947 */
                                                                           /* 0x000fc0000383ffff */
		..........

		Function : _Z7stencilPKiPii
        /*0000*/                   S2R R0, SR_TID.X ;                      /* 0x0000000000007919 */
                                                                           /* 0x000e220000002100 */
        /*0010*/                   STS [R0.X4+0xc], R3 ;                   /* 0x00000c0300007388 */
                                                                           /* 0x000fe80000004800 */
        /*0020*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;           /* 0x0000000000007b1d */
                                                                           /* 0x000fec0000010000 */
        /*0030*/                   LDS.64 R4, [R0.X4] ;                    /* 0x0000000000047984 */
                                                                           /* 0x000e280000004a00 */
        /*0040*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
		..........

		Function : _Z7matmulbPKfS0_Pfi
        /*0000*/                   MOV R9, RZ ;                            /* 0x000000ff00097202 */
                                                                           /* 0x000fe20000000f00 */
        /*0010*/                   STS [R2], R5 ;                          /* 0x0000000502007388 */
                                                                           /* 0x000fe80000000800 */
        /*0020*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;           /* 0x0000000000007b1d */
                                                                           /* 0x000fec0000010000 */
        /*0030*/                   LDS.128 R12, [R3] ;                     /* 0x000000000300c984 */
                                                                           /* 0x000e280000000c00 */
        /*0040*/                   FFMA R9, R12, R16, R9 ;                 /* 0x0000001000097223 */
                                                                           /* 0x001fc80000000009 */
        /*0050*/               @P0 BRA 0x10 ;                              /* 0xfffffffc00000947 */
                                                                           /* 0x000fea000383ffff */
        /*0060*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
		..........

		Function : _Z5tokenPKiPii
        /*0000*/              @!PT LDS RZ, [RZ] ;                          /* 0x00000000fffff984 */
                                                                           /* 0x000fe20000000800 */
        /*0010*/                   STS [RZ], R0 ;                          /* 0x00000000ff007388 */
                                                                           /* 0x000fe80000000800 */
        /*0020*/                   LDG.E R2, [R2.64] ;                     /* 0x0000000402027981 */
                                                                           /* 0x000ea8000c1e1900 */
        /*0030*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
		..........
)SASS";

const KernelCode& find(const std::vector<KernelCode>& all, const std::string& name)
{
    const auto it = std::find_if(all.begin(), all.end(), [&](const KernelCode& k) { return k.name == name; });
    REQUIRE(it != all.end());
    return *it;
}

wire::KernelRecord launch(const char* name, int shared) { return kernel(name, {1, 1, 1}, {32, 1, 1}, shared); }

ProgramFacts facts_of(const std::string& listing)
{
    ProgramFacts f;
    f.code_known = true;
    f.code = parse_sass(listing);
    return f;
}

}  // namespace

TEST_CASE("sass: printf calls, shared-memory reads, and reads inside a loop, per function")
{
    const auto all = parse_sass(kListing);
    CHECK(all.size() == 5);
    CHECK(find(all, "_Z9say_hellov").prints);
    CHECK_FALSE(find(all, "_Z9say_hellov").calls_unnamed);
    CHECK_FALSE(find(all, "_Z5emptyv").prints);
    CHECK_FALSE(find(all, "_Z5emptyv").reads_shared);
    CHECK(find(all, "_Z7stencilPKiPii").reads_shared);
    CHECK_FALSE(find(all, "_Z7stencilPKiPii").reads_shared_in_loop);  // no branch back: no loop
    CHECK_FALSE(find(all, "_Z9say_hellov").reads_shared_in_loop);  // "BRA 0x50" at 0x50: the tail, no loop
    CHECK(find(all, "_Z7matmulbPKfS0_Pfi").reads_shared_in_loop);
    CHECK_FALSE(find(all, "_Z5tokenPKiPii").reads_shared);  // "@!PT LDS" never runs
    CHECK_FALSE(find(all, "_Z5tokenPKiPii").generic_loads);  // LDG is a global load, not a generic one
}

TEST_CASE("sass: atomics on shared memory and through generic pointers, told from global atomics and padding")
{
    const std::string listing = R"SASS(
		Function : _Z7privatePKiiPii
        /*0000*/                   ATOMS.POPC.INC.32 RZ, [R3+URZ] ;        /* 0x00000000ff00738c */
                                                                           /* 0x000fe2000d00003f */
        /*0010*/                   RED.E.ADD.STRONG.GPU [R4.64], R5 ;      /* 0x000000050400798e */
                                                                           /* 0x000fe2000c10e184 */
        /*0020*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
		..........
		Function : _Z6globalPKiiPii
        /*0000*/                   VOTEU.ANY UR4, UPT, PT ;                /* 0x0000000000047886 */
                                                                           /* 0x000fe200038e0100 */
        /*0010*/                   RED.E.ADD.STRONG.GPU [R4.64], R5 ;      /* 0x000000050400798e */
                                                                           /* 0x000fe2000c10e184 */
        /*0020*/              @!PT ATOMS.ADD RZ, [RZ], RZ ;                /* 0x000000fffffff38c */
                                                                           /* 0x000fe2000c10e184 */
        /*0030*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
		..........
		Function : _Z4warpPKiiPii
        /*0000*/                   MATCH.ANY R7, R2 ;                      /* 0x00000000020773a1 */
                                                                           /* 0x000e2400000e8000 */
        /*0010*/                   ATOM.E.ADD.STRONG.GPU PT, R3, [R4.64], R5 ; /* 0x000000050403798a */
                                                                           /* 0x000fe2000c10e184 */
        /*0020*/                   EXIT ;                                  /* 0x000000000000794d */
                                                                           /* 0x000fea0003800000 */
		..........
)SASS";
    const auto all = parse_sass(listing);
    CHECK(find(all, "_Z7privatePKiiPii").atomics_on_shared);
    CHECK_FALSE(find(all, "_Z7privatePKiiPii").generic_atomics);  // RED is global
    CHECK_FALSE(find(all, "_Z6globalPKiiPii").atomics_on_shared);  // "@!PT ATOMS" never runs
    CHECK(find(all, "_Z4warpPKiiPii").generic_atomics);
    CHECK_FALSE(find(all, "_Z4warpPKiiPii").atomics_on_shared);
}

TEST_CASE("sass: nvdisasm's labels, calls through a device function, unnamed calls, several architectures")
{
    const std::string listing = R"SASS(
//--------------------- .text._Z5greetv --------------------------
.text._Z5greetv:
        /*0000*/                   CALL.ABS.NOINC `(vprintf) ;
        /*0010*/                   RET.ABS.NODEC R20 0x0 ;
.text._Z6helperv:
        /*0000*/                   CALL.REL.NOINC `(_Z5greetv) ;
        /*0010*/                   RET.ABS.NODEC R20 0x0 ;
.text._Z6kernelv:
.L_x_1:
        /*0000*/                   LDS R3, [R2] ;
        /*0010*/                   CALL.REL.NOINC `(_Z6helperv) ;
        /*0020*/               @P0 BRA `(.L_x_1) ;
        /*0030*/                   EXIT ;
.text._Z7opaquev:
        /*0000*/                   CALL.REL.NOINC 0x120 ;
        /*0010*/                   LD.E R4, [R2.64] ;
        /*0020*/                   EXIT ;
		Function : _Z5emptyv
        /*0000*/                   EXIT ;
		Function : _Z5emptyv
        /*0000*/                   CALL.ABS.NOINC `(vprintf) ;
)SASS";
    const auto all = parse_sass(listing);
    CHECK(find(all, "_Z6kernelv").prints);  // kernel -> helper -> greet -> vprintf
    CHECK(find(all, "_Z6helperv").prints);
    CHECK_FALSE(find(all, "_Z6helperv").reads_shared);
    CHECK(find(all, "_Z6kernelv").reads_shared_in_loop);  // the label names the loop's start
    CHECK(find(all, "_Z7opaquev").calls_unnamed);
    CHECK(find(all, "_Z7opaquev").generic_loads);
    CHECK(find(all, "_Z5emptyv").prints);  // one architecture's code prints: merged
    CHECK(std::count_if(all.begin(), all.end(), [](const KernelCode& k) { return k.name == "_Z5emptyv"; }) == 1);
    CHECK(parse_sass("").empty());
    CHECK(parse_sass("cuobjdump info    : File 'x' does not contain device code\n").empty());
}

TEST_CASE("code evidence: hello's kernel must print, and unknown code judges nothing")
{
    const TaskInfo& hello = task_of("hello", "hello");
    const ProgramFacts facts = facts_of(kListing);
    CHECK(findings_of_code(hello, facts, {launch("_Z9say_hellov", 0)}).empty());
    const auto empty = findings_of_code(hello, facts, {launch("_Z5emptyv", 0)});
    REQUIRE(kinds(empty) == std::vector<Verdict> {Verdict::not_on_gpu});
    CHECK(contains(empty[0].message, "your kernel empty never calls printf"));
    // A launched kernel the listing lacks, or no listing at all: nothing said.
    CHECK(findings_of_code(hello, facts, {launch("_Z5emptyv", 0), launch("_Z7missingv", 0)}).empty());
    CHECK(findings_of_code(hello, ProgramFacts {}, {launch("_Z5emptyv", 0)}).empty());
    // A call the listing does not name may be printf's.
    const ProgramFacts opaque = facts_of("Function : _Z5emptyv\n        /*0000*/   CALL.REL.NOINC 0x40 ;\n");
    CHECK(findings_of_code(hello, opaque, {launch("_Z5emptyv", 0)}).empty());
}

TEST_CASE("code evidence: shared memory declared must be read back, inside the loop where the lesson asks")
{
    const ProgramFacts facts = facts_of(kListing);
    const TaskInfo& stencil = task_of("stencil", "shared");
    CHECK(findings_of_code(stencil, facts, {launch("_Z7stencilPKiPii", 4120)}).empty());
    const auto token = findings_of_code(stencil, facts, {launch("_Z5tokenPKiPii", 4120)});
    REQUIRE(kinds(token) == std::vector<Verdict> {Verdict::no_shared_memory});
    CHECK(contains(token[0].message, "your kernel token declares shared memory but never reads from it"));
    // No shared memory at all is the launch records' finding, not this one.
    CHECK(findings_of_code(stencil, facts, {launch("_Z5tokenPKiPii", 0)}).empty());
    const TaskInfo& tiled = task_of("matmul", "tiled");
    CHECK(findings_of_code(tiled, facts, {launch("_Z7matmulbPKfS0_Pfi", 8192)}).empty());
    const auto outside = findings_of_code(tiled, facts, {launch("_Z7stencilPKiPii", 8192)});
    REQUIRE(kinds(outside) == std::vector<Verdict> {Verdict::no_shared_memory});
    CHECK(contains(outside[0].message, "only outside its loop"));
}

TEST_CASE("code evidence: symbols' poly kernel reads the constant bank of __constant__ variables")
{
    // Bank 3 holds the file's __constant__ variables (the object's section
    // .nv.constant3), bank 0 the kernel's parameters: an operand of an
    // arithmetic instruction, a uniform load or an indexed load of bank 3
    // counts; a parameter or a global load does not.
    const std::string listing = R"SASS(
		Function : _Z11poly_kernelPKfPfi
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDG.E R2, desc[UR4][R2.64] ;
        /*0020*/                   FFMA R5, R2, R5, c[0x3][0xf8] ;
        /*0030*/                   EXIT ;
		Function : _Z7uniformPKfPfi
        /*0000*/                   ULDC UR4, c[0x3][0x0] ;
        /*0010*/                   EXIT ;
		Function : _Z7indexedPKfPfi
        /*0000*/                   LDC R3, c[0x3][R0+0x4] ;
        /*0010*/                   EXIT ;
		Function : _Z11poly_kernelPKfS0_Pfi
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDC.64 R2, c[0x0][0x210] ;
        /*0020*/                   LDG.E R4, desc[UR4][R2.64] ;
        /*0030*/                   FFMA R5, R4, R5, R6 ;
        /*0040*/              @!PT LDC R7, c[0x3][0x0] ;
        /*0050*/                   EXIT ;
)SASS";
    const auto all = parse_sass(listing);
    CHECK(find(all, "_Z11poly_kernelPKfPfi").reads_user_constants);
    CHECK(find(all, "_Z7uniformPKfPfi").reads_user_constants);
    CHECK(find(all, "_Z7indexedPKfPfi").reads_user_constants);
    CHECK_FALSE(find(all, "_Z11poly_kernelPKfS0_Pfi").reads_user_constants);  // params, global, "@!PT" never runs

    const TaskInfo& poly = task_of("symbols", "poly");
    const ProgramFacts facts = facts_of(listing);
    CHECK(findings_of_code(poly, facts, {launch("_Z11poly_kernelPKfPfi", 0)}).empty());
    const auto global = findings_of_code(poly, facts, {launch("_Z11poly_kernelPKfS0_Pfi", 0)});
    REQUIRE(kinds(global) == std::vector<Verdict> {Verdict::wrong_launch});
    CHECK(contains(global[0].message, "your kernel poly_kernel never reads __constant__ memory"));
    // A kernel that calls what the listing cannot name may read it there.
    const ProgramFacts opaque = facts_of("Function : _Z11poly_kernelPKfS0_Pfi\n        /*0000*/   CALL.REL.NOINC 0x40 ;\n");
    CHECK(findings_of_code(poly, opaque, {launch("_Z11poly_kernelPKfS0_Pfi", 0)}).empty());
    // Other tasks do not ask for it.
    CHECK(findings_of_code(task_of("vecadd3", "add"), facts, {launch("_Z11poly_kernelPKfS0_Pfi", 0)}).empty());
}

TEST_CASE("code evidence: each message names the line where the student's file defines the kernel")
{
    const char* const src = "// token's cache: __global__ void token(int *x) in a comment is no definition\n"
                            "#include \"stencil.h\"\n"
                            "\n"
                            "const char *s = \"__global__ void token(\";\n"
                            "__device__ int token_helper(int v) { return v; }\n"
                            "template <int R>\n"
                            "__global__ void\n"
                            "  token (const int *in, int *out, int n)\n"
                            "{\n"
                            "    token_helper(0);\n"
                            "}\n"
                            "void run(int *d) { token<<<1, 1>>>(d, d, 1); }\n";
    CHECK(kernel_definition_line(src, "token") == 8);
    CHECK(kernel_definition_line(src, "void token<3>") == 8);
    CHECK(kernel_definition_line(src, "ns::token") == 8);
    CHECK(kernel_definition_line(src, "token_helper") == 0);  // not a kernel
    CHECK(kernel_definition_line(src, "run") == 0);
    CHECK(kernel_definition_line("#define K(name) __global__ void name() {}\nK(made)\n", "made") == 0);
    CHECK(kernel_definition_line("__global__ void a(){}\r\n__global__ void b(){}\r\n", "b") == 2);

    const ProgramFacts facts = facts_of(kListing);
    const auto token = findings_of_code(task_of("stencil", "shared"), facts, {launch("_Z5tokenPKiPii", 4120)}, src,
                                        "stencil.cu");
    REQUIRE(kinds(token) == std::vector<Verdict> {Verdict::no_shared_memory});
    CHECK(contains(token[0].message, "your kernel token (stencil.cu, line 8) declares shared memory"));
    const auto empty = findings_of_code(task_of("hello", "hello"), facts, {launch("_Z5emptyv", 0)},
                                        "__global__ void empty( void ) { }\n", "hello.cu");
    CHECK(contains(empty[0].message, "your kernel empty (hello.cu, line 1) never calls printf"));
}

// Needs nvcc (not a GPU), and cuobjdump beside it: real listings.
#if defined(HPCLAB_HPC_H_PROBE)
namespace {

ProgramFacts built_facts(const std::string& lab_id, const std::filesystem::path& source)
{
    const LabInfo& lab = lab_of(lab_id);
    const TempDir dir;
    Toolchain tc = Toolchain::configured();
    tc.cache_dir = dir.path() / "cache";
    const BuildResult r = build_lab_program(tc, lab, dir.write(lab.student_file, read_text_file(source).value()), "student");
    REQUIRE_MESSAGE(r.ok, r.diagnostics);
    return r.facts;
}

}  // namespace

TEST_CASE("code evidence: real listings of hello's solution, its empty-kernel mistake and matmul's tiles")
{
    if (Toolchain::configured().cuobjdump.empty()) {
        MESSAGE("no cuobjdump beside nvcc: the real listings are read where the CUDA toolkit is whole");
        return;
    }
    const auto root = course_root();
    const ProgramFacts hello = built_facts("hello", root / "solutions" / "hello" / "hello.cu");
    REQUIRE(hello.code_known);
    REQUIRE(hello.code_of("_Z9say_hellov"));
    // On sm_90 cuobjdump shows device printf as CALL.ABS.NOINC through a
    // register (the address loaded from a constant bank), not by name: a
    // call the listing cannot name, so the rule does not judge (seen on the
    // H100 with CUDA 13.0).
    const auto* say_hello = hello.code_of("_Z9say_hellov");
    CHECK((say_hello->prints || say_hello->calls_unnamed));
    const ProgramFacts host = built_facts("hello", root / "tests" / "broken" / "hello" / "host_prints.cu");
    REQUIRE(host.code_of("_Z9say_hellov"));
    CHECK_FALSE(host.code_of("_Z9say_hellov")->prints);
    CHECK_FALSE(host.code_of("_Z9say_hellov")->calls_unnamed);
    const ProgramFacts matmul = built_facts("matmul", root / "solutions" / "matmul" / "matmul.cu");
    REQUIRE(matmul.code_of("_Z7matmulbPKfS0_Pfi"));
    CHECK(matmul.code_of("_Z7matmulbPKfS0_Pfi")->reads_shared_in_loop);
}

TEST_CASE("code evidence: real listings of symbols' poly kernel, from __constant__ and from global memory")
{
    if (Toolchain::configured().cuobjdump.empty()) {
        MESSAGE("no cuobjdump beside nvcc: the real listings are read where the CUDA toolkit is whole");
        return;
    }
    const auto root = course_root();
    const ProgramFacts solution = built_facts("symbols", root / "solutions" / "symbols" / "symbols.cu");
    REQUIRE(solution.code_of("_Z11poly_kernelPKfPfi"));
    CHECK(solution.code_of("_Z11poly_kernelPKfPfi")->reads_user_constants);
    CHECK_FALSE(solution.code_of("_Z10sum_kernelPKii")->reads_user_constants);  // a __device__ array is global memory
    const ProgramFacts global =
        built_facts("symbols", root / "tests" / "broken" / "symbols" / "poly_global_memory.cu");
    REQUIRE(global.code_of("_Z11poly_kernelPKfS0_Pfi"));
    CHECK_FALSE(global.code_of("_Z11poly_kernelPKfS0_Pfi")->reads_user_constants);
}

TEST_CASE("code evidence: real listings of warpreduce's solution: both kernels shuffle within their warps")
{
    if (Toolchain::configured().cuobjdump.empty()) {
        MESSAGE("no cuobjdump beside nvcc: the real listings are read where the CUDA toolkit is whole");
        return;
    }
    const ProgramFacts warp = built_facts("warpreduce", course_root() / "solutions" / "warpreduce" / "warpreduce.cu");
    for (const char* kernel : {"_Z10sum_kernelPKiiPi", "_Z10max_kernelPKiiPi"}) {
        CAPTURE(kernel);
        REQUIRE(warp.code_of(kernel));
        CHECK(warp.code_of(kernel)->reduces_in_warp);
    }
}
#endif

TEST_CASE("code evidence: a real build keeps where each kernel is defined, and a header inlined into the student's kernel is theirs")
{
    // Cooperative groups' reduce(), inlined into the student's own kernels: no kernel of a library.
    const auto root = course_root();
    const ProgramFacts cg = built_facts("warpreduce", root / "tests" / "hostile" / "warpreduce" / "honest_cg_reduce.cu");
    CHECK(cg.origins_known);
    CHECK(cg.foreign_kernels.empty());
    CHECK(cg.library_kernels().empty());
}
