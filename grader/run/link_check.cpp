#include "run/link_check.h"

#include "process/process.h"
#include "util/atomic_file.h"
#include "util/keyed_hash.h"
#include "util/text_file.h"

#include <cxxabi.h>
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <sstream>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

struct NmLine {
    bool has_value = false;
    char type = 0;
    std::string name;
};

// "0000000000000080 T _Z3addPKiS0_Pii", "                 U malloc",
// "clock_gettime@@GLIBC_2.17" (nm -D: the version is not part of the name).
std::optional<NmLine> parse_nm_line(const std::string& line)
{
    std::istringstream in(line);
    std::vector<std::string> fields;
    for (std::string f; in >> f;) fields.push_back(f);
    if (fields.size() < 2 || fields[fields.size() - 2].size() != 1) return std::nullopt;
    NmLine l;
    l.has_value = fields.size() >= 3;
    l.type = fields[fields.size() - 2][0];
    l.name = fields.back();
    if (const auto at = l.name.find('@'); at != std::string::npos && at > 0) l.name.resize(at);
    return l;
}

bool is_undefined(char type) { return type == 'U' || type == 'w' || type == 'v'; }
bool is_weak(char type) { return type == 'W' || type == 'V'; }

template <class F> void for_each_nm_line(std::string_view nm_output, F f)
{
    std::istringstream in {std::string(nm_output)};
    for (std::string line; std::getline(in, line);)
        if (auto l = parse_nm_line(line)) f(*l);
}

std::string nm_of(const fs::path& file, bool dynamic, bool& ok)
{
    ProcessSpec nm;
    nm.argv = {"/usr/bin/env", "nm", "-g"};
    if (dynamic) nm.argv.push_back("-D");
    nm.argv.push_back(file.string());
    nm.wall_limit_s = 60;
    nm.output_limit = 256u << 20;
    const ProcessResult r = run_process(nm);
    ok = r.exited() && r.exit_code == 0 && !r.out_truncated;
    return ok ? r.out : std::string();
}

// One part of the program: what it defines goes into `strong` / `weak`,
// what it refers to into `referenced`. False when nm cannot read it.
bool add_part(const fs::path& file, bool dynamic, std::set<std::string>& strong, std::set<std::string>* weak,
              std::set<std::string>& referenced)
{
    std::error_code ec;
    if (!fs::exists(file, ec)) return false;
    bool ok = false;
    const std::string out = nm_of(file, dynamic, ok);
    for_each_nm_line(out, [&](const NmLine& l) {
        if (is_undefined(l.type) || !l.has_value) referenced.insert(l.name);
        else if (is_weak(l.type) && weak) weak->insert(l.name);
        else strong.insert(l.name);
    });
    return ok;
}

// Where the host compiler finds one of its libraries (empty: it does not).
fs::path host_library(const LinkParts& tc, const char* name)
{
    ProcessSpec ask;
    ask.argv = {tc.host_compiler.string(), std::string("-print-file-name=") + name};
    ask.wall_limit_s = 30;
    const ProcessResult r = run_process(ask);
    std::string path = r.out;
    while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
    std::error_code ec;
    if (!r.exited() || r.exit_code != 0 || path == name || !fs::exists(path, ec)) return {};
    return path;
}

std::optional<ProgramSymbols> read_program_symbols(const LinkParts& tc, const fs::path& bind_lib)
{
    ProgramSymbols s;
    if (!add_part(tc.harness_lib, false, s.harness_strong, &s.harness_weak, s.referenced)) return std::nullopt;
    add_part(bind_lib, false, s.harness_strong, &s.harness_weak, s.referenced);
    if (!tc.cuda_lib_dir.empty())
        add_part(tc.cuda_lib_dir / "libcudart_static.a", false, s.runtime_strong, &s.runtime_weak, s.referenced);
    if (!tc.cupti_lib_dir.empty())
        add_part(tc.cupti_lib_dir / "libcupti.so", true, s.runtime_strong, &s.runtime_weak, s.referenced);
    for (const char* lib : {"libstdc++.so.6", "libm.so.6", "libc.so.6", "libgcc_s.so.1"})
        if (const fs::path p = host_library(tc, lib); !p.empty())
            add_part(p, true, s.library_strong, &s.library_weak, s.referenced);
    return s;
}

// C has no templates or inline copies: a weak C definition is made on purpose.
bool is_cxx_name(const std::string& name) { return name.rfind("_Z", 0) == 0; }

// Whether a student's definition of a name that a part defines replaces it:
// not when both are weak copies (the same inline function, template or
// compiler-made object from the same header).
bool replaces(const SymbolDefinition& d, bool part_strong, bool part_weak)
{
    if (!part_strong && !part_weak) return false;
    return !d.weak || part_strong;
}

// A shared library's definition counts as strong (it interposes either
// way), so only a weak C++ copy of what it defines weak escapes; a weak C
// definition of a library function is made on purpose.
bool replaces_library(const SymbolDefinition& d, bool library_strong, bool library_weak)
{
    return replaces(d, library_strong, library_weak) || (library_weak && !is_cxx_name(d.name));
}

std::string demangled(const std::string& name)
{
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && d ? d.get() : name;
}

// The parts' sets kept on disk, one line a name behind a letter per set:
// reading them with nm takes a check about a second, and every check is a
// process of its own. Keyed by what the sets are read from.
constexpr std::pair<char, std::set<std::string> ProgramSymbols::*> kSets[] = {
    {'H', &ProgramSymbols::harness_strong}, {'h', &ProgramSymbols::harness_weak},
    {'R', &ProgramSymbols::runtime_strong}, {'r', &ProgramSymbols::runtime_weak},
    {'L', &ProgramSymbols::library_strong}, {'l', &ProgramSymbols::library_weak},
    {'U', &ProgramSymbols::referenced}};

fs::path symbols_cache(const LinkParts& tc, const fs::path& bind_lib)
{
    std::string key;
    for (const fs::path& p : {tc.harness_lib, bind_lib, tc.cuda_lib_dir / "libcudart_static.a",
                              tc.cupti_lib_dir / "libcupti.so", tc.host_compiler}) {
        std::error_code ec;
        key += p.string() + ':' + std::to_string(fs::file_size(p, ec)) + ':' +
               std::to_string(fs::last_write_time(p, ec).time_since_epoch().count()) + '\n';
    }
    return tc.cache_dir / fmt::format("link-symbols-{:016x}.txt",
                                      keyed_hash(std::as_bytes(std::span(key)), 0x6C696E6Bull));
}

std::optional<ProgramSymbols> cached_symbols(const fs::path& file)
{
    const auto text = read_text_file(file);
    if (!text || text->rfind("hpclab link symbols 1\n", 0) != 0) return std::nullopt;
    ProgramSymbols s;
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);)
        for (const auto& [letter, set] : kSets)
            if (line.size() > 2 && line[0] == letter && line[1] == ' ') (s.*set).insert(line.substr(2));
    return s;
}

void keep_symbols(const fs::path& file, const ProgramSymbols& s)
{
    std::string text = "hpclab link symbols 1\n";
    for (const auto& [letter, set] : kSets)
        for (const std::string& name : s.*set) text += std::string(1, letter) + ' ' + name + '\n';
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    try {
        write_file_atomically(file, text);
    } catch (const std::exception&) {
        // Not kept: the next check reads the parts again.
    }
}

}  // namespace

std::vector<SymbolDefinition> defined_symbols(std::string_view nm_output)
{
    std::vector<SymbolDefinition> defs;
    for_each_nm_line(nm_output, [&](const NmLine& l) {
        if (l.has_value && !is_undefined(l.type)) defs.push_back({l.name, is_weak(l.type)});
    });
    return defs;
}

std::set<std::string> undefined_symbols(std::string_view nm_output)
{
    std::set<std::string> names;
    for_each_nm_line(nm_output, [&](const NmLine& l) {
        if (is_undefined(l.type) || !l.has_value) names.insert(l.name);
    });
    return names;
}

std::vector<SymbolConflict> conflicting_definitions(const std::vector<SymbolDefinition>& student,
                                                    const ProgramSymbols& rest)
{
    using Owner = SymbolConflict::Owner;
    std::vector<SymbolConflict> found;
    for (const SymbolDefinition& d : student) {
        const auto in = [&](const std::set<std::string>& set) { return set.count(d.name) > 0; };
        if (d.name == "main") found.push_back({d.name, Owner::main});
        else if (replaces(d, in(rest.harness_strong), in(rest.harness_weak))) found.push_back({d.name, Owner::harness});
        else if (replaces(d, in(rest.runtime_strong), in(rest.runtime_weak))) found.push_back({d.name, Owner::runtime});
        else if (in(rest.referenced) && replaces_library(d, in(rest.library_strong), in(rest.library_weak)))
            found.push_back({d.name, Owner::library});
    }
    return found;
}

std::string explain_conflicts(const std::vector<SymbolConflict>& conflicts)
{
    constexpr std::size_t kShown = 5;
    std::string text;
    for (std::size_t i = 0; i < conflicts.size() && i < kShown; ++i) {
        const SymbolConflict& c = conflicts[i];
        const std::string name = demangled(c.name);
        switch (c.owner) {
            case SymbolConflict::Owner::main:
                text += "your file defines `main`: the course provides the program's main (hpclab's harness "
                        "calls your functions); remove it\n";
                break;
            case SymbolConflict::Owner::harness:
                text += fmt::format("your file defines `{}`, which hpclab's harness defines: remove it\n", name);
                break;
            case SymbolConflict::Owner::runtime:
                text += fmt::format("your file defines `{}`, a function of the CUDA runtime the program uses: remove "
                                    "it (or rename yours and make it static)\n",
                                    name);
                break;
            case SymbolConflict::Owner::library:
                text += fmt::format("your file defines `{}`, which the C/C++ library defines and the program uses: "
                                    "rename yours (or make it static)\n",
                                    name);
                break;
        }
    }
    if (conflicts.size() > kShown) text += fmt::format("... and {} more such definitions\n", conflicts.size() - kShown);
    return text;
}

std::optional<ProgramSymbols> program_symbols(const LinkParts& tc, const fs::path& bind_lib)
{
    static std::mutex m;
    static std::map<std::string, std::optional<ProgramSymbols>> known;
    const std::string key = tc.harness_lib.string() + '\0' + bind_lib.string();
    std::lock_guard lock(m);
    auto it = known.find(key);
    if (it != known.end()) return it->second;
    const fs::path cache = symbols_cache(tc, bind_lib);
    std::optional<ProgramSymbols> s = cached_symbols(cache);
    if (!s && (s = read_program_symbols(tc, bind_lib))) keep_symbols(cache, *s);
    return known.emplace(key, std::move(s)).first->second;
}

std::optional<std::string> link_refusal(const LinkParts& tc, const fs::path& object, const fs::path& bind_lib,
                                        std::string& setup_error)
{
    setup_error.clear();
    bool ok = false;
    const std::string out = nm_of(object, false, ok);
    if (!ok) {
        setup_error = fmt::format("cannot read the symbols of the compiled object {} (nm, from binutils)\n",
                                  object.string());
        return std::nullopt;
    }
    const std::optional<ProgramSymbols> rest = program_symbols(tc, bind_lib);
    if (!rest) {
        setup_error = fmt::format("cannot read the symbols of the harness {} (nm)\n", tc.harness_lib.string());
        return std::nullopt;
    }
    const auto conflicts = conflicting_definitions(defined_symbols(out), *rest);
    if (conflicts.empty()) return std::nullopt;
    return explain_conflicts(conflicts);
}

std::optional<std::set<std::string>> object_calls(const fs::path& object)
{
    bool ok = false;
    const std::string out = nm_of(object, false, ok);
    if (!ok) return std::nullopt;
    return undefined_symbols(out);
}

}  // namespace hpclab
