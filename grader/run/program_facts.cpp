#include "run/program_facts.h"

#include "run/process.h"
#include "util/atomic_file.h"
#include "util/text_file.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

namespace hpclab {

namespace {

// nvcc gives every __global__ function a host stub whose mangled name holds
// the kernel's: kernel _Z4addPfS_S_i has stub _Z26__device_stub__Z4addPfS_S_iPfS_S_i
// (static stubs show as guard variables _ZGVZL...__device_stub__...). The
// text after this marker starts with the kernel's name without its "_".
constexpr std::string_view kStub = "__device_stub__";

// Library namespaces, as the stub spells them after the marker.
constexpr std::string_view kLibraries[] = {"ZN3cub", "ZN6thrust", "ZN7cutlass", "ZN4cute", "ZN6cublas"};

std::string demangled(const std::string& stub_tail)
{
    const std::string name = "_" + stub_tail;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    // The stub's tail carries its own parameters after the kernel's: the
    // demangler may refuse it; then the raw name says enough.
    return status == 0 && d ? d.get() : name;
}

}  // namespace

std::vector<std::string> kernel_stubs(std::string_view nm_output)
{
    std::set<std::string> stubs;
    std::istringstream in {std::string(nm_output)};
    std::string line;
    while (std::getline(in, line)) {
        const auto at = line.find(kStub);
        if (at == std::string::npos) continue;
        std::string tail = line.substr(at + kStub.size());
        if (const auto end = tail.find_first_of(" \t"); end != std::string::npos) tail.resize(end);
        // A guard variable's name ends in "E5__tmp": the stub's name is before it.
        if (const auto e = tail.rfind("E5__tmp"); e != std::string::npos && e + 7 == tail.size()) tail.resize(e);
        if (!tail.empty()) stubs.insert(tail);
    }
    return {stubs.begin(), stubs.end()};
}

bool ProgramFacts::defines_kernel(std::string_view mangled) const
{
    if (!mangled.empty() && mangled.front() == '_') mangled.remove_prefix(1);
    if (mangled.empty()) return false;
    return std::any_of(kernels.begin(), kernels.end(),
                       [&](const std::string& stub) { return std::string_view(stub).substr(0, mangled.size()) == mangled; });
}

std::vector<std::string> ProgramFacts::library_kernels() const
{
    std::vector<std::string> found;
    for (const auto& stub : kernels)
        for (std::string_view lib : kLibraries)
            if (stub.rfind(lib, 0) == 0 && found.size() < 3) found.push_back(demangled(stub));
    return found;
}

const KernelCode* ProgramFacts::code_of(std::string_view mangled) const
{
    if (!code_known) return nullptr;
    const auto it = std::find_if(code.begin(), code.end(), [&](const KernelCode& k) { return k.name == mangled; });
    return it == code.end() ? nullptr : &*it;
}

namespace {

// A tool's output about the program, or nothing when it did not finish
// cleanly (then nothing is judged from it).
std::optional<std::string> tool_output(std::vector<std::string> argv)
{
    ProcessSpec spec;
    spec.argv = std::move(argv);
    spec.wall_limit_s = 30;
    spec.output_limit = 64u << 20;
    const ProcessResult r = run_process(spec);
    if (!r.exited() || r.exit_code != 0 || r.out_truncated) return std::nullopt;
    return r.out;
}

}  // namespace

std::filesystem::path sass_of(const std::filesystem::path& program)
{
    std::filesystem::path p = program;
    p += ".sass";
    return p;
}

void keep_sass(const std::filesystem::path& object, const std::filesystem::path& program,
               const std::filesystem::path& cuobjdump)
{
    std::error_code ec;
    if (cuobjdump.empty() || !std::filesystem::exists(cuobjdump, ec)) return;
    const auto sass = tool_output({cuobjdump.string(), "-sass", object.string()});
    if (!sass) return;
    try {
        write_file_atomically(sass_of(program), *sass);
    } catch (const std::exception&) {
        // Not kept: read_program_facts reads the program itself.
    }
}

ProgramFacts read_program_facts(const std::filesystem::path& program, bool traced,
                                const std::filesystem::path& cuobjdump)
{
    ProgramFacts facts;
    facts.traced = traced;
    if (const auto nm = tool_output({"/usr/bin/env", "nm", program.string()})) {
        facts.kernels = kernel_stubs(*nm);
        facts.kernels_known = true;
    }
    read_program_code(facts, program, cuobjdump);
    return facts;
}

void read_program_code(ProgramFacts& facts, const std::filesystem::path& program,
                       const std::filesystem::path& cuobjdump)
{
    std::error_code ec;
    if (cuobjdump.empty() || !std::filesystem::exists(cuobjdump, ec)) return;
    if (auto kept = read_text_file(sass_of(program))) {
        facts.code = parse_sass(*kept);
        facts.code_known = true;
    } else if (const auto sass = tool_output({cuobjdump.string(), "-sass", program.string()})) {
        facts.code = parse_sass(*sass);
        facts.code_known = true;
    }
}

}  // namespace hpclab
