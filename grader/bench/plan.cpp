#include "bench/plan.h"

#include "util/shown_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace hpclab {

namespace {

double elements(const Params& p)
{
    double product = 1;
    for (const auto& [name, value] : p) product *= static_cast<double>(value);
    return product;
}

// The number of sizes the lists make; a BenchInputError when they cannot pair up.
std::size_t sweep_length(const SizeLists& sizes)
{
    std::size_t count = 1;
    for (const auto& [name, values] : sizes) {
        if (values.empty()) throw BenchInputError(fmt::format("--{} needs a value", name));
        if (values.size() == 1) continue;
        if (count != 1 && values.size() != count)
            throw BenchInputError(fmt::format("the size options give lists of different lengths ({} and {}): give "
                                              "one value, or as many as the others",
                                              count, values.size()));
        count = values.size();
    }
    return count;
}

void check_sizes(const LabInfo& lab, const SizeLists& sizes)
{
    for (const auto& [name, values] : sizes)
        for (const auto v : values)
            if (const std::string problem = size_option_problem(lab, name, v); !problem.empty())
                throw BenchInputError(problem);
    sweep_length(sizes);
}

// The lab's timed tasks the choices keep.
std::vector<const TaskInfo*> planned_tasks(const LabInfo& lab, const std::string& only)
{
    std::vector<const TaskInfo*> out;
    for (const auto& t : lab.tasks)
        if (t.timed && (only.empty() || t.id == only)) out.push_back(&t);
    return out;
}

}  // namespace

std::vector<const LabInfo*> labs_with_sweeps(const Catalog& catalog)
{
    std::vector<const LabInfo*> out;
    for (const auto& lab : catalog.labs())
        if (std::any_of(lab.tasks.begin(), lab.tasks.end(), [](const TaskInfo& t) { return !t.bench_sizes.empty(); }))
            out.push_back(&lab);
    return out;
}

std::vector<Params> bench_sweep(const TaskInfo& task, const SizeLists& sizes, bool quick)
{
    std::vector<Params> sweep;
    if (!sizes.empty()) {
        const std::size_t count = sweep_length(sizes);
        for (std::size_t i = 0; i < count; ++i) {
            Params p = task.timing;
            for (const auto& [name, values] : sizes) p[name] = values.size() == 1 ? values[0] : values[i];
            sweep.push_back(std::move(p));
        }
    } else if (!task.bench_sizes.empty()) {
        sweep = task.bench_sizes;
    } else {
        sweep = {task.timing};
    }
    if (quick && sweep.size() > 1) {
        std::size_t largest = 0;
        for (std::size_t i = 1; i < sweep.size(); ++i)
            if (elements(sweep[i]) >= elements(sweep[largest])) largest = i;
        sweep = {sweep[largest]};
    }
    return sweep;
}

int bench_reps(const TaskInfo& task, std::optional<int> given)
{
    return given ? *given : std::max(task.timing_reps, kMinBenchReps);
}

int bench_calls(const TaskPlan& plan, const Params& size)
{
    if (plan.reps_given || plan.sizes.empty()) return plan.reps;
    double most = 0;
    for (const Params& p : plan.sizes) most = std::max(most, elements(p));
    const double times = elements(size) > 0 ? most / elements(size) : 1;
    return static_cast<int>(std::min<double>(kMaxBenchReps, std::max(1.0, times) * plan.reps));
}

std::vector<LabPlan> plan_bench(const std::vector<const LabInfo*>& labs, const BenchChoices& choices,
                                const std::filesystem::path& variants_dir, const std::filesystem::path& root)
{
    if (labs.empty()) throw BenchInputError("no lab to benchmark");
    if (!choices.sizes.empty() && labs.size() != 1)
        throw BenchInputError("size options (--n, --width, ...) go with one lab: name it");
    if (choices.reps && (*choices.reps < 1 || *choices.reps > kMaxBenchReps))
        throw BenchInputError(fmt::format("--reps must be between 1 and {}", kMaxBenchReps));
    if (!choices.task.empty()) {
        bool found = false;
        for (const LabInfo* lab : labs)
            if (const TaskInfo* t = lab->find_task(choices.task)) {
                if (!t->timed)
                    throw BenchInputError(fmt::format("task {} of lab {} has no \"timing\" in its lab.json: it is not "
                                                      "benchmarked",
                                                      t->id, lab->id));
                found = true;
            }
        if (!found) {
            std::string known;
            for (const LabInfo* lab : labs) known += fmt::format("{}{}: {}", known.empty() ? "" : "; ", lab->id, lab->task_ids());
            throw BenchInputError(fmt::format("no lab benchmarked here has a task '{}' ({})", choices.task, known));
        }
    }

    std::vector<LabPlan> plans;
    std::set<std::string> variant_ids;  // every variant found, for the --variants check
    for (const LabInfo* lab : labs) {
        check_sizes(*lab, choices.sizes);
        LabPlan plan;
        plan.lab = lab;
        for (const TaskInfo* t : planned_tasks(*lab, choices.task))
            plan.tasks.push_back({t, bench_sweep(*t, choices.sizes, choices.quick), bench_reps(*t, choices.reps),
                                  choices.reps.has_value()});
        std::vector<BenchVariant> found = discover_variants(variants_dir, *lab, root);
        found.push_back(solution_variant(*lab));
        std::stable_sort(found.begin(), found.end(), variant_order);
        bool asked_for = false;  // a variant chosen for itself, not the limit that comes along
        for (auto& v : found) {
            variant_ids.insert(v.id);
            const bool named = choices.variants.empty() ||
                               std::find(choices.variants.begin(), choices.variants.end(), v.id) != choices.variants.end();
            const bool useful = std::any_of(plan.tasks.begin(), plan.tasks.end(),
                                            [&](const TaskPlan& tp) { return v.covers(tp.task->id); });
            // The limit always comes along: every other row is a fraction of it.
            if (!useful || !(named || v.is_limit())) continue;
            asked_for = asked_for || (named && (!v.is_limit() || !choices.variants.empty()));
            plan.variants.push_back(std::move(v));
        }
        if (asked_for && !plan.tasks.empty()) plans.push_back(std::move(plan));
    }
    for (const auto& id : choices.variants)
        if (!variant_ids.count(id))
            throw BenchInputError(fmt::format("no variant '{}' for {} (in {}/<lab>/); the variants are: {}", id,
                                              labs.size() == 1 ? "lab " + labs.front()->id : "these labs",
                                              shown_path(variants_dir, root), fmt::join(variant_ids, ", ")));
    if (plans.empty()) throw BenchInputError("nothing to run: no variant chosen covers a task chosen");
    return plans;
}

}  // namespace hpclab
