#include "check/code_evidence.h"

#include "check/evidence.h"
#include "check/lesson_facts.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace hpclab {

namespace {

std::string mangled_name(const wire::KernelRecord& k) { return std::string(k.name, wire::name_length(k.name, sizeof k.name)); }

Finding finding(Verdict v, std::string message) { return Finding {v, std::move(message), "", ""}; }

// The source with its comments and its string and character literals made
// spaces, line breaks kept: what is left is code, on its own lines.
std::string code_only(std::string_view src)
{
    std::string out(src);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const auto blank_until = [&](std::size_t end) {
            for (; i < end && i < out.size(); ++i)
                if (out[i] != '\n') out[i] = ' ';
            --i;
        };
        if (out.compare(i, 2, "//") == 0) blank_until(out.find('\n', i) == std::string::npos ? out.size() : out.find('\n', i));
        else if (out.compare(i, 2, "/*") == 0) {
            const auto end = out.find("*/", i + 2);
            blank_until(end == std::string::npos ? out.size() : end + 2);
        } else if (out[i] == '"' || out[i] == '\'') {
            std::size_t j = i + 1;
            while (j < out.size() && out[j] != out[i] && out[j] != '\n') j += out[j] == '\\' ? 2 : 1;
            blank_until(std::min(j + 1, out.size()));
        }
    }
    return out;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// "void ns::rotate<32>" -> "rotate": the kernel's own name, as the file writes it.
std::string bare_name(std::string_view demangled)
{
    std::string_view s = demangled.substr(0, demangled.find('<'));
    if (const auto colon = s.rfind("::"); colon != std::string_view::npos) s.remove_prefix(colon + 2);
    if (const auto space = s.rfind(' '); space != std::string_view::npos) s.remove_prefix(space + 1);
    return std::string(s);
}

// "your kernel rotate (rotation.cu, line 31)", or without the place when the file does not show it.
std::string kernel_named(const KernelCode& k, std::string_view source, const std::string& file_name)
{
    const std::string name = demangle(k.name);
    const int line = kernel_definition_line(source, name);
    if (line == 0) return "your kernel " + name;
    return fmt::format("your kernel {} ({}, line {})", name, file_name.empty() ? "your file" : file_name, line);
}

// A shared_memory task whose kernels declare shared memory: some kernel
// reads it back, or may (generic loads). Where it is read, in a loop or
// not, is a lesson fact (shared_reads_in_loop) a task may ask.
std::optional<Finding> shared_read_finding(const std::vector<const KernelCode*>& code, const std::string& name)
{
    if (std::any_of(code.begin(), code.end(), [&](const KernelCode* k) { return k->generic_loads || k->reads_shared; }))
        return std::nullopt;
    return finding(Verdict::no_shared_memory,
                   fmt::format("{} declares shared memory but never reads from it: the lesson's cache is "
                               "where the kernel reads its inputs from (load them into the __shared__ array, "
                               "__syncthreads(), then compute from the array)",
                               name));
}

// A warp_shuffle task: some launched kernel combines a warp's registers
// (SHFL, or REDUX: a warp reduction written or made by the compiler counts
// too), or may (a call the listing does not name).
std::optional<Finding> warp_shuffle_finding(const std::vector<const KernelCode*>& code, std::string_view source,
                                            const std::string& file_name)
{
    if (std::any_of(code.begin(), code.end(), [](const KernelCode* k) { return k->reduces_in_warp || k->calls_unnamed; }))
        return std::nullopt;
    return finding(Verdict::no_warp_shuffle,
                   fmt::format("{} never exchanges registers within a warp (its machine code has no SHFL nor REDUX): "
                               "the lesson adds up each warp's values with __shfl_down_sync, in registers, and only "
                               "the warps' sums go through shared memory",
                               kernel_named(*code.front(), source, file_name)));
}

}  // namespace

int kernel_definition_line(std::string_view source, std::string_view name)
{
    const std::string want = bare_name(name);
    if (want.empty()) return 0;
    const std::string code = code_only(source);
    for (std::size_t at = code.find(want); at != std::string::npos; at = code.find(want, at + 1)) {
        const std::size_t end = at + want.size();
        if ((at > 0 && identifier_char(code[at - 1])) || (end < code.size() && identifier_char(code[end]))) continue;
        const std::size_t paren = code.find_first_not_of(" \t\r\n", end);
        if (paren == std::string::npos || code[paren] != '(') continue;
        // The declaration it is part of: back to the end of the previous statement or block.
        const std::size_t start = code.find_last_of(";{}", at);
        const std::string_view head = std::string_view(code).substr(start == std::string::npos ? 0 : start + 1,
                                                                   at - (start == std::string::npos ? 0 : start + 1));
        for (std::size_t g = head.find("__global__"); g != std::string_view::npos; g = head.find("__global__", g + 1))
            if ((g == 0 || !identifier_char(head[g - 1])) && (g + 10 >= head.size() || !identifier_char(head[g + 10])))
                return 1 + static_cast<int>(std::count(code.begin(), code.begin() + static_cast<long>(at), '\n'));
    }
    return 0;
}

std::vector<Finding> findings_of_code(const TaskInfo& task, const ProgramFacts& facts,
                                      const std::vector<wire::KernelRecord>& launches, std::string_view source,
                                      const std::string& file_name)
{
    std::vector<Finding> out;
    std::vector<const KernelCode*> code;
    for (const auto& k : launches) {
        const KernelCode* c = facts.code_of(mangled_name(k));
        if (!c) return out;  // a kernel whose code is unknown may do what is looked for
        code.push_back(c);
    }
    if (code.empty()) return out;
    const std::string first = kernel_named(*code.front(), source, file_name);
    for (MissingFact& m : missing_facts(ObservedIn::machine_code, FactScene {.expect = task.expect, .code = code, .named = first}))
        out.push_back(finding(m.verdict, std::move(m.why)));
    const bool declares_shared = std::any_of(launches.begin(), launches.end(), [](const wire::KernelRecord& k) {
        return k.static_shared + k.dynamic_shared > 0;
    });
    if (task.technique == "warp_shuffle")
        if (auto f = warp_shuffle_finding(code, source, file_name)) out.push_back(std::move(*f));
    if (task.technique == "shared_memory" && declares_shared)
        if (auto f = shared_read_finding(code, first)) out.push_back(std::move(*f));
    return out;
}

}  // namespace hpclab
