// A student's object may not define what the rest of the program defines
// (run/link_check.h): main, the harness, the runtime, a library function
// the program uses. Weak copies of one inline function or template pass.
#include "run/link_check.h"
#include "run/toolchain.h"
#include "test_support.h"
#include "util/text_file.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::lab_of;
using hpclab::test::TempDir;

namespace {

std::vector<SymbolConflict::Owner> owners(const std::vector<SymbolDefinition>& student, const ProgramSymbols& rest)
{
    std::vector<SymbolConflict::Owner> o;
    for (const auto& c : conflicting_definitions(student, rest)) o.push_back(c.owner);
    return o;
}

ProgramSymbols sample_program()
{
    ProgramSymbols p;
    p.harness_strong = {"_ZN6hpclab5trace10begin_callEPNS_4wire9CallTraceE"};
    p.harness_weak = {"_ZNSt6vectorIiSaIiEE9push_backERKi", "DW.ref.__gxx_personality_v0"};
    p.runtime_strong = {"cudaMalloc"};
    p.library_strong = {"clock_gettime", "advance", "_ZNSt6chrono3_V212steady_clock3nowEv"};
    p.library_weak = {"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7reserveEm", "malloc_hook_like"};
    p.referenced = {"clock_gettime", "_ZNSt6chrono3_V212steady_clock3nowEv", "malloc_hook_like",
                    "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7reserveEm"};
    return p;
}

}  // namespace

TEST_CASE("link check: nm's lines, defined and undefined, with and without values and versions")
{
    const std::string nm = "\nvecadd3.o:\n"
                           "0000000000000000 V DW.ref.__gxx_personality_v0\n"
                           "00000000000002e0 T _Z6vecaddPKiS0_Pii\n"
                           "0000000000000010 W _ZNSt6vectorIiSaIiEE9push_backERKi\n"
                           "                 U cudaLaunchKernel\n"
                           "                 w __gmon_start__\n"
                           "00000000000c4a60 T clock_gettime@@GLIBC_2.17\n"
                           "0000000000001000 B main_buffer\n";
    const auto defs = defined_symbols(nm);
    REQUIRE(defs.size() == 5);
    CHECK(defs[0].name == "DW.ref.__gxx_personality_v0");
    CHECK(defs[0].weak);
    CHECK_FALSE(defs[1].weak);
    CHECK(defs[2].weak);
    CHECK(defs[3].name == "clock_gettime");  // the version is not part of the name
    const auto undef = undefined_symbols(nm);
    CHECK(undef == std::set<std::string> {"cudaLaunchKernel", "__gmon_start__"});
}

TEST_CASE("link check: main, the harness's functions, the runtime's and a used library function are refused")
{
    const ProgramSymbols rest = sample_program();
    using O = SymbolConflict::Owner;
    CHECK(owners({{"main", false}}, rest) == std::vector {O::main});
    CHECK(owners({{"_ZN6hpclab5trace10begin_callEPNS_4wire9CallTraceE", false}}, rest) == std::vector {O::harness});
    // Weak does not help: it would still stand in for the archive's member.
    CHECK(owners({{"_ZN6hpclab5trace10begin_callEPNS_4wire9CallTraceE", true}}, rest) == std::vector {O::harness});
    CHECK(owners({{"cudaMalloc", false}}, rest) == std::vector {O::runtime});
    CHECK(owners({{"clock_gettime", false}}, rest) == std::vector {O::library});
    CHECK(owners({{"clock_gettime", true}}, rest) == std::vector {O::library});  // weak C: on purpose
    // A C++ function the library defines for real, redefined weak by hand.
    CHECK(owners({{"_ZNSt6chrono3_V212steady_clock3nowEv", true}}, rest) == std::vector {O::library});
    // A weak C definition of what a library defines weak.
    CHECK(owners({{"malloc_hook_like", true}}, rest) == std::vector {O::library});
    // A strong explicit specialisation of a template the harness instantiates.
    CHECK(owners({{"_ZNSt6vectorIiSaIiEE9push_backERKi", false}}, rest) == std::vector {O::harness});
}

TEST_CASE("link check: weak copies of an inline function or template, and an unused library name, pass")
{
    const ProgramSymbols rest = sample_program();
    CHECK(owners({{"_ZNSt6vectorIiSaIiEE9push_backERKi", true}, {"DW.ref.__gxx_personality_v0", true}}, rest).empty());
    CHECK(owners({{"advance", false}}, rest).empty());  // libc has it, nothing here uses it
    // The weak copy of a template member the library also instantiates.
    CHECK(owners({{"_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7reserveEm", true}}, rest).empty());
    CHECK(owners({{"_Z6vecaddPKiS0_Pii", false}, {"_Z3addPKiS0_Pii", false}}, rest).empty());
}

TEST_CASE("link check: the refusal names each symbol, demangled, in a student's words")
{
    const std::string text = explain_conflicts({{"main", SymbolConflict::Owner::main},
                                                {"_ZN6hpclab5trace8end_callEv", SymbolConflict::Owner::harness},
                                                {"clock_gettime", SymbolConflict::Owner::library}});
    CHECK(text.find("your file defines `main`: the course provides") != std::string::npos);
    CHECK(text.find("`hpclab::trace::end_call()`, which hpclab's harness defines: remove it") != std::string::npos);
    CHECK(text.find("`clock_gettime`, which the C/C++ library defines and the program uses") != std::string::npos);
}

// Needs nvcc (not a GPU): compiled in only where the build has it.
#if defined(HPCLAB_HPC_H_PROBE)
namespace {

BuildResult build_text(const std::string& text, const TempDir& dir)
{
    Toolchain tc = Toolchain::configured();
    tc.cache_dir = dir.path() / "cache";
    return build_lab_program(tc, lab_of("vecadd3"), dir.write("vecadd3.cu", text), "student");
}

std::string solution_text() { return read_text_file(lab_of("vecadd3").solution_source()).value(); }

}  // namespace

TEST_CASE("link check, built with nvcc: files that define main, a trace hook or the clock are compile errors")
{
    const TempDir dir;
    const BuildResult with_main = build_text(solution_text() + "\nint main() { return 0; }\n", dir);
    CHECK_FALSE(with_main.ok);
    CHECK_FALSE(with_main.setup_problem);
    CHECK(with_main.diagnostics.find("your file defines `main`") != std::string::npos);

    const BuildResult with_hook = build_text(
        solution_text() + "\nnamespace hpclab { namespace wire { struct CallTrace; }\n"
                          "namespace trace { void begin_call(wire::CallTrace*) {} void end_call() {} } }\n",
        dir);
    CHECK_FALSE(with_hook.ok);
    CHECK(with_hook.diagnostics.find("`hpclab::trace::begin_call(hpclab::wire::CallTrace*)`, which hpclab's "
                                     "harness defines") != std::string::npos);

    const BuildResult with_clock =
        build_text("#include <time.h>\nextern \"C\" int clock_gettime(clockid_t, struct timespec *ts) { ts->tv_sec = "
                   "0; ts->tv_nsec = 0; return 0; }\n" + solution_text(),
                   dir);
    CHECK_FALSE(with_clock.ok);
    CHECK(with_clock.diagnostics.find("`clock_gettime`") != std::string::npos);
}

TEST_CASE("link check, built with nvcc: an honest file with templates, strings and a global named advance builds")
{
    const TempDir dir;
    const BuildResult honest = build_text(
        "#include <vector>\n#include <string>\n#include <algorithm>\nint advance = 3;\n"
        "static std::vector<int> sizes;\nstd::string last_label;\n" + solution_text() +
            "\nvoid remember(int n) { sizes.push_back(n); std::sort(sizes.begin(), sizes.end()); last_label = "
            "std::to_string(n); }\n",
        dir);
    CHECK_MESSAGE(honest.ok, honest.diagnostics);
}
#endif
