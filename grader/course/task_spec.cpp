#include "course/task_spec.h"

#include "util/parallel.h"
#include "course/random.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>

namespace hpclab {

namespace {

std::map<std::pair<std::string, std::string>, std::unique_ptr<TaskSpec>, std::less<>>& registry()
{
    static std::map<std::pair<std::string, std::string>, std::unique_ptr<TaskSpec>, std::less<>> r;
    return r;
}

constexpr std::uint64_t kEdgeSample = 256;  // first and last elements always compared

double element_value(const std::byte* base, ElemType type, std::uint64_t i)
{
    if (type == ElemType::i32) {
        std::int32_t v;
        std::memcpy(&v, base + 4 * i, 4);
        return v;
    }
    float f;
    std::memcpy(&f, base + 4 * i, 4);
    return f;
}

bool is_poison(const std::byte* base, std::uint64_t i)
{
    std::uint32_t bits;
    std::memcpy(&bits, base + 4 * i, 4);
    return bits == wire::kPoison32;
}

std::string show_value(double v, ElemType type)
{
    if (type == ElemType::i32) return fmt::format("{}", static_cast<std::int64_t>(v));
    return fmt::format("{:.9g}", v);
}

struct Mismatch {
    std::uint64_t index = std::numeric_limits<std::uint64_t>::max();
    double expected = 0, got = 0;
    bool poison = false;
};

// The indices compared: all, or the edges plus a random sample.
std::vector<std::uint64_t> sample_indices(std::uint64_t count, std::uint64_t budget, std::uint64_t seed)
{
    std::vector<std::uint64_t> idx;
    for (std::uint64_t i = 0; i < std::min(count, kEdgeSample); ++i) idx.push_back(i);
    for (std::uint64_t i = count > kEdgeSample ? count - kEdgeSample : 0; i < count; ++i) idx.push_back(i);
    const RandomStream rs(seed, 0x5A3F1E);
    for (std::uint64_t k = 0; idx.size() < budget && k < budget; ++k)
        idx.push_back(static_cast<std::uint64_t>(rs.integer(k, 0, static_cast<std::int64_t>(count) - 1)));
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
    return idx;
}

}  // namespace

void TaskSpec::reference(const Params&, const CallBuffers&, std::string_view output, std::span<const std::uint64_t>,
                         std::span<double>, std::span<double>) const
{
    throw std::logic_error("spec has no element-wise reference for output " + std::string(output));
}

std::string TaskSpec::locate(const Params&, std::string_view, std::uint64_t index) const
{
    return fmt::format("index {}", index);
}

CheckResult TaskSpec::check(const CheckInput& in) const { return compare_outputs(*this, in); }

std::string TaskSpec::summarize(const Params&, const CallBuffers& call) const
{
    std::string out;
    for (const auto& e : call.entries()) {
        if (e.decl.role != Role::output) continue;
        const std::uint64_t n = e.decl.count;
        auto value = [&](std::uint64_t i) {
            return is_poison(e.bytes.data(), i) ? std::string("?") : show_value(element_value(e.bytes.data(), e.decl.type, i), e.decl.type);
        };
        std::string text;
        if (n == 1) {
            text = e.decl.name + " = " + value(0);
        } else {
            text = e.decl.name + " = [";
            for (std::uint64_t i = 0; i < std::min<std::uint64_t>(n, 4); ++i) text += (i ? ", " : "") + value(i);
            if (n > 5) text += ", ...";
            if (n > 4) text += ", " + value(n - 1);
            text += fmt::format("] ({} {})", n, e.decl.type == ElemType::i32 ? "ints" : "floats");
        }
        out += (out.empty() ? "" : "; ") + text;
    }
    return out;
}

CheckResult compare_outputs(const TaskSpec& spec, const CheckInput& in)
{
    CheckResult result;
    std::vector<std::string> passed;
    for (const auto& entry : in.buffers.entries()) {
        if (entry.decl.role != Role::output) continue;
        const BufferDecl& d = entry.decl;
        const std::byte* base = entry.bytes.data();
        const std::uint64_t count = d.count;

        // Unwritten elements, over the whole buffer: cheap, and a missed tail
        // of the array is the most common bug of the early labs.
        std::uint64_t unwritten = 0;
        std::uint64_t first_unwritten = count;
        std::mutex m;
        parallel_for(count, [&](std::uint64_t b, std::uint64_t e) {
            std::uint64_t n = 0, first = count;
            for (std::uint64_t i = b; i < e; ++i)
                if (is_poison(base, i)) {
                    if (first == count) first = i;
                    ++n;
                }
            std::lock_guard lock(m);
            unwritten += n;
            first_unwritten = std::min(first_unwritten, first);
        });

        // Sample only when the sample is a small part of the buffer: past a
        // quarter, comparing everything costs less than drawing indices.
        const double cost = std::max(1.0, spec.reference_cost(in.params));
        const auto budget = static_cast<std::uint64_t>(std::max(1024.0, in.reference_budget / cost));
        const bool sampled = budget < count / 4;
        std::vector<std::uint64_t> sample;
        if (sampled) sample = sample_indices(count, budget, in.sample_seed);
        const std::uint64_t ncheck = sampled ? sample.size() : count;

        Mismatch first;
        std::uint64_t wrong = 0;
        double max_abs = 0, max_rel = 0;
        const Tolerance& tol = in.task.tolerance;
        // Batches small enough that a costly reference (matmul: n operations
        // an element) still spreads over every thread.
        const auto kBatch = static_cast<std::uint64_t>(std::clamp((1u << 16) / cost, 64.0, double(1u << 16)));
        parallel_for(
            ncheck,
            [&](std::uint64_t b, std::uint64_t e) {
                std::vector<std::uint64_t> idx;
                std::vector<double> expected, scale;
                Mismatch local;
                std::uint64_t local_wrong = 0;
                double local_abs = 0, local_rel = 0;
                for (std::uint64_t s = b; s < e; s += kBatch) {
                    const std::uint64_t n = std::min(kBatch, e - s);
                    idx.resize(n);
                    for (std::uint64_t k = 0; k < n; ++k) idx[k] = sampled ? sample[s + k] : s + k;
                    expected.assign(n, 0.0);
                    scale.assign(n, std::numeric_limits<double>::quiet_NaN());
                    spec.reference(in.params, in.buffers, d.name, idx, expected, scale);
                    for (std::uint64_t k = 0; k < n; ++k) {
                        const double want = expected[k];
                        const double got = element_value(base, d.type, idx[k]);
                        bool good;
                        if (tol.kind == Tolerance::Kind::exact) {
                            good = got == want;
                        } else {
                            const double sc = std::isnan(scale[k]) ? std::fabs(want) : scale[k];
                            const double err = std::fabs(got - want);
                            good = std::isfinite(got) && err <= tol.atol + tol.rtol * sc;
                            if (std::isfinite(got)) {
                                local_abs = std::max(local_abs, err);
                                if (sc > 0) local_rel = std::max(local_rel, err / sc);
                            }
                        }
                        if (!good) {
                            ++local_wrong;
                            if (idx[k] < local.index) local = {idx[k], want, got, is_poison(base, idx[k])};
                        }
                    }
                }
                std::lock_guard lock(m);
                wrong += local_wrong;
                max_abs = std::max(max_abs, local_abs);
                max_rel = std::max(max_rel, local_rel);
                if (local.index < first.index) first = local;
            },
            /*grain=*/kBatch);

        result.checked += ncheck;
        result.wrong += wrong;
        result.unwritten += unwritten;
        result.sampled = result.sampled || sampled;
        result.max_abs_error = std::max(result.max_abs_error, max_abs);
        result.max_rel_error = std::max(result.max_rel_error, max_rel);
        const std::string what = sampled ? fmt::format("{} sampled of {}", ncheck, count) : fmt::format("{}", count);
        if (wrong == 0 && unwritten == 0) {
            passed.push_back(fmt::format("{}: {} elements match", d.name, what));
            continue;
        }
        if (!result.ok()) continue;  // report the first failing output in full only
        if (unwritten > 0 && first_unwritten <= first.index) {
            result.kind = CheckResult::Kind::unwritten;
            result.summary = fmt::format("{}[{}] was never written ({}): {} of {} elements were left unwritten", d.name,
                                         first_unwritten, spec.locate(in.params, d.name, first_unwritten), unwritten,
                                         count);
        } else {
            result.kind = CheckResult::Kind::mismatch;
            result.summary = fmt::format("{}[{}] ({}): expected {}, got {}", d.name, first.index,
                                         spec.locate(in.params, d.name, first.index),
                                         show_value(first.expected, d.type),
                                         first.poison ? "nothing (never written)" : show_value(first.got, d.type));
            result.details.push_back(fmt::format("{} of {} compared elements differ", wrong, what));
            if (unwritten > 0) result.details.push_back(fmt::format("{} elements were never written", unwritten));
        }
        if (tol.kind == Tolerance::Kind::relative)
            result.details.push_back(fmt::format("max abs error {:.3g}, max rel error {:.3g} (tolerance: rel {:.1g})",
                                                 max_abs, max_rel, tol.rtol));
    }
    if (result.ok()) {
        result.summary = passed.empty() ? "no outputs to compare" : passed.front();
        for (std::size_t i = 1; i < passed.size(); ++i) result.summary += "; " + passed[i];
        if (in.task.tolerance.kind == Tolerance::Kind::relative)
            result.details.push_back(fmt::format("max abs error {:.3g}, max rel error {:.3g} (tolerance: rel {:.1g})",
                                                 result.max_abs_error, result.max_rel_error, in.task.tolerance.rtol));
    }
    return result;
}

void register_task_spec(std::string lab, std::string task, std::unique_ptr<TaskSpec> spec)
{
    auto key = std::make_pair(std::move(lab), std::move(task));
    if (registry().count(key)) throw std::logic_error("task spec registered twice: " + key.first + "/" + key.second);
    registry()[std::move(key)] = std::move(spec);
}

const TaskSpec* find_task_spec(std::string_view lab, std::string_view task)
{
    for (const auto& [key, spec] : registry())
        if (key.first == lab && key.second == task) return spec.get();
    return nullptr;
}

std::vector<std::pair<std::string, std::string>> registered_task_specs()
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [key, spec] : registry()) out.push_back(key);
    return out;
}

}  // namespace hpclab
