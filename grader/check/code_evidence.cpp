#include "check/code_evidence.h"

#include "check/evidence.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

std::string mangled_name(const wire::KernelRecord& k) { return std::string(k.name, wire::name_length(k.name, sizeof k.name)); }

Finding finding(Verdict v, std::string message) { return Finding {v, std::move(message), "", ""}; }

// hello: some launched kernel calls printf, or may (an unnamed call).
std::optional<Finding> printf_finding(const std::vector<const KernelCode*>& code)
{
    if (std::any_of(code.begin(), code.end(), [](const KernelCode* k) { return k->prints || k->calls_unnamed; }))
        return std::nullopt;
    return finding(Verdict::not_on_gpu,
                   fmt::format("your kernel {} never calls printf: the greetings must be printed by the GPU's threads, "
                               "with printf inside the kernel, not by the host around the launch",
                               demangle(code.front()->name)));
}

// A shared_memory task whose kernels declare shared memory: some kernel
// reads it back (in a loop where the lesson asks), or may (generic loads).
std::optional<Finding> shared_read_finding(const TaskInfo& task, const std::vector<const KernelCode*>& code)
{
    const bool in_loop = task.expect.shared_reads_in_loop;
    if (std::any_of(code.begin(), code.end(), [&](const KernelCode* k) {
            return k->generic_loads || (in_loop ? k->reads_shared_in_loop : k->reads_shared);
        }))
        return std::nullopt;
    const std::string name = demangle(code.front()->name);
    if (in_loop && std::any_of(code.begin(), code.end(), [](const KernelCode* k) { return k->reads_shared; }))
        return finding(Verdict::no_shared_memory,
                       fmt::format("your kernel {} reads its shared memory only outside its loop: the lesson's steps "
                                   "each load a tile into shared memory and compute from it, inside the loop",
                                   name));
    return finding(Verdict::no_shared_memory,
                   fmt::format("your kernel {} declares shared memory but never reads from it: the lesson's cache is "
                               "where the kernel reads its inputs from (load them into the __shared__ array, "
                               "__syncthreads(), then compute from the array)",
                               name));
}

}  // namespace

std::vector<Finding> findings_of_code(const TaskInfo& task, const ProgramFacts& facts,
                                      const std::vector<wire::KernelRecord>& launches)
{
    std::vector<Finding> out;
    std::vector<const KernelCode*> code;
    for (const auto& k : launches) {
        const KernelCode* c = facts.code_of(mangled_name(k));
        if (!c) return out;  // a kernel whose code is unknown may do what is looked for
        code.push_back(c);
    }
    if (code.empty()) return out;
    if (task.expect.prints)
        if (auto f = printf_finding(code)) out.push_back(std::move(*f));
    const bool declares_shared = std::any_of(launches.begin(), launches.end(), [](const wire::KernelRecord& k) {
        return k.static_shared + k.dynamic_shared > 0;
    });
    if (task.technique == "shared_memory" && declares_shared)
        if (auto f = shared_read_finding(task, code)) out.push_back(std::move(*f));
    return out;
}

}  // namespace hpclab
