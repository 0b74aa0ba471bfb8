#include "run/sass.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

namespace hpclab {

namespace {

// One instruction of the listing: "/*0070*/  @!P0 BRA 0x50 ;" or, as
// nvdisasm writes branches, "BRA `(.L_x_3) ;".
struct Instruction {
    std::uint64_t address = 0;
    std::string predicate;  // "@P0", "@!PT", or empty
    std::string opcode;     // "LDS.U.128"
    std::string operands;
};

std::optional<Instruction> instruction_of(const std::string& line)
{
    static const std::regex re(R"(^\s*/\*([0-9a-fA-F]+)\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);?)");
    std::smatch m;
    if (!std::regex_search(line, m, re)) return std::nullopt;
    Instruction i;
    i.address = std::stoull(m[1].str(), nullptr, 16);
    i.predicate = m[2].str();
    i.predicate.erase(i.predicate.find_last_not_of(" \t") + 1);
    i.opcode = m[3].str();
    i.operands = m[4].str();
    return i;
}

// "@!PT" never executes: the compiler's padding (nvdisasm shows
// "@!PT LDS RZ, [RZ]" beside memory barriers), not the student's load.
bool never_runs(const Instruction& i) { return i.predicate == "@!PT"; }

bool is(const Instruction& i, std::string_view base)
{
    return i.opcode == base || i.opcode.rfind(std::string(base) + ".", 0) == 0;
}

// A function's start: "Function : _Z5hellov" (cuobjdump) or
// ".text._Z5hellov:" (nvdisasm).
std::optional<std::string> function_start(const std::string& line)
{
    static const std::regex cuobjdump(R"(^\s*Function\s*:\s*(\S+))");
    static const std::regex nvdisasm(R"(^\s*\.text\.(\S+):\s*$)");
    std::smatch m;
    if (std::regex_search(line, m, cuobjdump) || std::regex_search(line, m, nvdisasm)) return m[1].str();
    return std::nullopt;
}

// The target of a branch: an address ("0x50") or a label ("`(.L_x_3)").
std::optional<std::uint64_t> branch_target(const Instruction& i, const std::map<std::string, std::uint64_t>& labels)
{
    static const std::regex address(R"(^\s*(0x[0-9a-fA-F]+))");
    static const std::regex label(R"(`\((\.L_[A-Za-z0-9_]+)\))");
    std::smatch m;
    if (std::regex_search(i.operands, m, address)) return std::stoull(m[1].str(), nullptr, 16);
    if (std::regex_search(i.operands, m, label))
        if (const auto it = labels.find(m[1].str()); it != labels.end()) return it->second;
    return std::nullopt;
}

// How an operand in the bank of the file's __constant__ variables begins.
constexpr std::string_view kUserConstantBank = "c[0x3][";

// The facts of one function from its instructions (and nvdisasm's labels).
KernelCode facts_of(std::string name, const std::vector<Instruction>& code,
                    const std::map<std::string, std::uint64_t>& labels)
{
    KernelCode k;
    k.name = std::move(name);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> loops;  // [target, branch]
    for (const Instruction& i : code) {
        if (never_runs(i)) continue;
        if (is(i, "CALL")) {
            static const std::regex callee(R"(`\(([^)]+)\))");
            std::smatch m;
            if (!std::regex_search(i.operands, m, callee)) k.calls_unnamed = true;
            else if (m[1].str() == "vprintf") k.prints = true;
            else k.callees.push_back(m[1].str());
        }
        if (is(i, "LD")) k.generic_loads = true;
        if (i.operands.find(kUserConstantBank) != std::string::npos) k.reads_user_constants = true;
        if (is(i, "SHFL") || is(i, "REDUX")) k.reduces_in_warp = true;
        if (is(i, "ATOMS")) k.atomics_on_shared = true;
        if (is(i, "ATOM")) k.generic_atomics = true;
        if (is(i, "BRA") || is(i, "JMP"))
            if (const auto t = branch_target(i, labels); t && *t < i.address) loops.emplace_back(*t, i.address);
    }
    for (const Instruction& i : code) {
        if (never_runs(i) || !(is(i, "LDS") || is(i, "LDSM"))) continue;
        k.reads_shared = true;
        if (std::any_of(loops.begin(), loops.end(),
                        [&](const auto& l) { return l.first <= i.address && i.address <= l.second; }))
            k.reads_shared_in_loop = true;
    }
    return k;
}

void merge(std::vector<KernelCode>& all, KernelCode k)
{
    const auto it = std::find_if(all.begin(), all.end(), [&](const KernelCode& o) { return o.name == k.name; });
    if (it == all.end()) {
        all.push_back(std::move(k));
        return;
    }
    it->prints |= k.prints;
    it->calls_unnamed |= k.calls_unnamed;
    it->reads_shared |= k.reads_shared;
    it->reads_shared_in_loop |= k.reads_shared_in_loop;
    it->generic_loads |= k.generic_loads;
    it->reads_user_constants |= k.reads_user_constants;
    it->reduces_in_warp |= k.reduces_in_warp;
    it->atomics_on_shared |= k.atomics_on_shared;
    it->generic_atomics |= k.generic_atomics;
    it->callees.insert(it->callees.end(), k.callees.begin(), k.callees.end());
}

// What a callee does, its callers do, through any depth of calls. A callee
// the listing lacks may do anything: its callers' calls are then unnamed.
void inherit_from_callees(std::vector<KernelCode>& all)
{
    const auto find = [&](const std::string& name) {
        return std::find_if(all.begin(), all.end(), [&](const KernelCode& o) { return o.name == name; });
    };
    for (bool changed = true; changed;) {
        changed = false;
        const auto gain = [&](bool& fact, bool from) {
            changed |= from && !fact;
            fact |= from;
        };
        for (KernelCode& k : all)
            for (const std::string& name : k.callees) {
                const auto c = find(name);
                if (c == all.end()) {
                    gain(k.calls_unnamed, true);
                    continue;
                }
                gain(k.prints, c->prints);
                gain(k.calls_unnamed, c->calls_unnamed);
                gain(k.reads_shared, c->reads_shared);
                // Where the call stands is not tracked: a loop is given the benefit of the doubt.
                gain(k.reads_shared_in_loop, c->reads_shared);
                gain(k.generic_loads, c->generic_loads);
                gain(k.reads_user_constants, c->reads_user_constants);
                gain(k.reduces_in_warp, c->reduces_in_warp);
                gain(k.atomics_on_shared, c->atomics_on_shared);
                gain(k.generic_atomics, c->generic_atomics);
            }
    }
}

}  // namespace

std::vector<KernelCode> parse_sass(std::string_view listing)
{
    static const std::regex label_line(R"(^\s*(\.L_[A-Za-z0-9_]+):\s*$)");
    std::vector<KernelCode> out;
    std::optional<std::string> current;
    std::vector<Instruction> code;
    std::map<std::string, std::uint64_t> labels;  // nvdisasm's: a label names the next instruction
    std::vector<std::string> pending_labels;
    auto finish = [&] {
        if (current) merge(out, facts_of(*current, code, labels));
        code.clear();
        labels.clear();
        pending_labels.clear();
    };
    std::istringstream in {std::string(listing)};
    std::string line;
    while (std::getline(in, line)) {
        if (auto name = function_start(line)) {
            finish();
            current = std::move(name);
            continue;
        }
        if (!current) continue;
        std::smatch m;
        if (std::regex_match(line, m, label_line)) {
            pending_labels.push_back(m[1].str());
        } else if (auto i = instruction_of(line)) {
            for (const auto& l : pending_labels) labels[l] = i->address;
            pending_labels.clear();
            code.push_back(std::move(*i));
        }
    }
    finish();
    inherit_from_callees(out);
    return out;
}

}  // namespace hpclab
