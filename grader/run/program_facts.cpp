#include "run/program_facts.h"

#include "process/process.h"
#include "util/atomic_file.h"
#include "util/text_file.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <map>
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
    const auto add = [&](std::string name) {
        if (found.size() < 3 && std::find(found.begin(), found.end(), name) == found.end())
            found.push_back(std::move(name));
    };
    for (const auto& mangled : foreign_kernels) add(demangled(mangled.substr(mangled.rfind("_Z", 0) == 0 ? 1 : 0)));
    for (const auto& stub : kernels)
        for (std::string_view lib : kLibraries)
            if (stub.rfind(lib, 0) == 0) add(demangled(stub));
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

namespace {

std::filesystem::path origins_of(const std::filesystem::path& program)
{
    std::filesystem::path p = program;
    p += ".origins";
    return p;
}

// The quoted name of a `.file N "name"` directive.
std::optional<std::pair<std::string, std::string>> file_directive(std::string_view line)
{
    std::istringstream in {std::string(line)};
    std::string directive, index;
    if (!(in >> directive >> index) || directive != ".file") return std::nullopt;
    const auto open = line.find('"'), close = line.rfind('"');
    if (open == std::string_view::npos || close <= open) return std::nullopt;
    return std::make_pair(index, std::string(line.substr(open + 1, close - open - 1)));
}

// Whether a line table's file is the one the compile's #line named: as
// written, or made absolute by nvcc when it was relative.
bool is_own_file(const std::string& file, const std::string& own)
{
    if (file == own) return true;
    return !own.empty() && own.front() != '/' && file.size() > own.size() &&
           file.compare(file.size() - own.size(), own.size(), own) == 0 && file[file.size() - own.size() - 1] == '/';
}

}  // namespace

std::vector<std::pair<std::string, std::string>> kernel_origins(std::string_view ptx)
{
    std::map<std::string, std::string> files;
    std::vector<std::pair<std::string, std::string>> entries;  // kernel, file index
    bool open = false;  // inside an entry, its origin not found yet
    std::istringstream in {std::string(ptx)};
    for (std::string line; std::getline(in, line);) {
        const auto first = line.find_first_not_of(" \t");
        const std::string_view text = first == std::string::npos ? std::string_view {} : std::string_view(line).substr(first);
        if (auto f = file_directive(text)) {
            files[f->first] = f->second;
        } else if (const auto at = line.find(".entry "); at != std::string::npos && text.rfind("//", 0) != 0) {
            std::string name = line.substr(at + 7);
            name = name.substr(0, name.find_first_of("( \t"));
            entries.emplace_back(name, "");
            open = !name.empty();
        } else if (text.rfind(".func", 0) == 0 || line.find(" .func ") != std::string::npos) {
            open = false;  // a device function's lines are not a kernel's
        } else if (open && text.rfind(".loc", 0) == 0 && line.find("inlined_at") == std::string::npos) {
            std::istringstream loc {std::string(text)};
            std::string directive, index;
            loc >> directive >> index;
            entries.back().second = index;
            open = false;
        }
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [kernel, index] : entries)
        if (const auto f = files.find(index); !index.empty() && f != files.end()) out.emplace_back(kernel, f->second);
    return out;
}

void keep_kernel_origins(const std::filesystem::path& keep_dir, const std::string& own_file,
                         const std::filesystem::path& program)
{
    std::error_code ec;
    bool any_ptx = false;
    std::set<std::string> foreign;
    for (const auto& e : std::filesystem::directory_iterator(keep_dir, ec)) {
        if (e.path().extension() != ".ptx") continue;
        const auto text = read_text_file(e.path());
        if (!text) return;  // a listing not read: the origins stay unknown
        any_ptx = true;
        for (const auto& [kernel, file] : kernel_origins(*text))
            if (!is_own_file(file, own_file)) foreign.insert(kernel);
    }
    if (!any_ptx) return;
    std::string lines;
    for (const auto& k : foreign) lines += k + '\n';
    try {
        write_file_atomically(origins_of(program), lines);
    } catch (const std::exception&) {
        // Not kept: the library check reads the kernels' namespaces alone.
    }
}

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
    if (const auto origins = read_text_file(origins_of(program))) {
        facts.origins_known = true;
        std::istringstream in(*origins);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) facts.foreign_kernels.push_back(line);
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
