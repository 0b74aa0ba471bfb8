#include "course/task_spec.h"

#include "util/parallel.h"
#include "util/word_count.h"
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

}  // namespace

// A stratified sample comes sorted and unique as it is drawn (a sort of
// millions of random draws cost more, on one thread, than comparing every
// element of a cheap reference on all of them: stencil's timed runs), and
// it spreads over the whole buffer.
std::vector<std::uint64_t> sample_indices(std::uint64_t count, std::uint64_t budget, std::uint64_t seed)
{
    std::vector<std::uint64_t> idx;
    const std::uint64_t edge = std::min(count / 2, kEdgeSample);
    for (std::uint64_t i = 0; i < edge; ++i) idx.push_back(i);
    const std::uint64_t middle = count - 2 * edge;  // [edge, count - edge)
    const std::uint64_t strata = std::min(middle, budget > 2 * edge ? budget - 2 * edge : 0);
    const RandomStream rs(seed, 0x5A3F1E);
    for (std::uint64_t k = 0; k < strata; ++k) {
        const std::uint64_t lo = edge + k * middle / strata, hi = edge + (k + 1) * middle / strata;  // hi > lo
        idx.push_back(static_cast<std::uint64_t>(rs.integer(k, static_cast<std::int64_t>(lo),
                                                            static_cast<std::int64_t>(hi) - 1)));
    }
    for (std::uint64_t i = count - edge; i < count; ++i) idx.push_back(i);
    return idx;
}

namespace {

// Unwritten elements, over the whole buffer: cheap, and a missed tail
// of the array is the most common bug of the early labs.
struct PoisonScan {
    std::uint64_t count = 0;
    std::uint64_t first = 0;  // the buffer's size when there is none
};

PoisonScan scan_poison(const std::byte* base, std::uint64_t count)
{
    PoisonScan scan {0, count};
    std::mutex m;
    parallel_for(count, [&](std::uint64_t b, std::uint64_t e) {
        const std::uint64_t n = count_word(base, b, e, wire::kPoison32);  // the fast loop; the first found after
        std::uint64_t first = count;
        for (std::uint64_t i = b; n > 0 && i < e && first == count; ++i)
            if (is_poison(base, i)) first = i;
        std::lock_guard lock(m);
        scan.count += n;
        scan.first = std::min(scan.first, first);
    });
    return scan;
}

// Elements that hold the poison's bits because that is their right value
// are written: an int output whose values span every 32-bit word (a scan's
// running sums of 2^26 ints wrap around the range thousands of times) meets
// the poison's value once in 2^32 elements, once in some 64 calls of 2^26.
// A few poisoned elements are asked of the reference; many are unwritten.
PoisonScan without_rightful_poison(const TaskSpec& spec, const CheckInput& in, const BufferDecl& decl,
                                   const std::byte* base, PoisonScan scan)
{
    constexpr std::uint64_t kAsked = 64;
    if (scan.count == 0 || scan.count > kAsked || decl.type != ElemType::i32) return scan;
    std::vector<std::uint64_t> idx;
    for (std::uint64_t i = scan.first; i < decl.count && idx.size() < scan.count; ++i)
        if (is_poison(base, i)) idx.push_back(i);
    std::vector<double> expected(idx.size(), 0.0), scale(idx.size(), std::numeric_limits<double>::quiet_NaN());
    spec.reference(in.params, in.buffers, decl.name, idx, expected, scale);
    PoisonScan left {0, decl.count};
    for (std::size_t k = 0; k < idx.size(); ++k) {
        if (expected[k] == static_cast<double>(static_cast<std::int32_t>(wire::kPoison32))) continue;
        ++left.count;
        left.first = std::min(left.first, idx[k]);
    }
    return left;
}

// The elements of one output compared with the reference.
struct Sample {
    bool sampled = false;                // else every element, in order
    std::vector<std::uint64_t> indices;  // when sampled
    std::uint64_t size = 0;              // elements compared

    std::uint64_t index(std::uint64_t k) const { return sampled ? indices[k] : k; }
};

// Sample only when the sample is a small part of the buffer: past a
// quarter, comparing everything costs less than drawing indices.
Sample choose_sample(std::uint64_t count, double cost, const CheckInput& in)
{
    if (!in.sample.empty()) {
        Sample given;
        given.sampled = true;
        for (const std::uint64_t i : in.sample)
            if (i < count) given.indices.push_back(i);
        given.size = given.indices.size();
        return given;
    }
    const auto budget = static_cast<std::uint64_t>(std::max(1024.0, in.reference_budget / cost));
    Sample sample;
    sample.sampled = budget < count / 4;
    if (sample.sampled) sample.indices = sample_indices(count, budget, in.sample_seed);
    sample.size = sample.sampled ? sample.indices.size() : count;
    return sample;
}

// The comparison of one output with the reference, or of a part of it.
struct Comparison {
    Mismatch first;  // the lowest index that differs
    std::uint64_t wrong = 0;
    double max_abs = 0, max_rel = 0;

    void judge(const Tolerance& tol, const std::byte* base, ElemType type, std::uint64_t index, double want,
               double scale)
    {
        const double got = element_value(base, type, index);
        bool good;
        if (tol.kind == Tolerance::Kind::exact) {
            good = got == want;
        } else {
            const double sc = std::isnan(scale) ? std::fabs(want) : scale;
            const double err = std::fabs(got - want);
            good = std::isfinite(got) && err <= tol.atol + tol.rtol * sc;
            if (std::isfinite(got)) {
                max_abs = std::max(max_abs, err);
                if (sc > 0) max_rel = std::max(max_rel, err / sc);
            }
        }
        if (good) return;
        ++wrong;
        if (index < first.index) first = {index, want, got, is_poison(base, index)};
    }

    void merge(const Comparison& part)
    {
        wrong += part.wrong;
        max_abs = std::max(max_abs, part.max_abs);
        max_rel = std::max(max_rel, part.max_rel);
        if (part.first.index < first.index) first = part.first;
    }
};

// One output of one call, and what comparing it takes.
struct OutputCheck {
    const TaskSpec& spec;
    const CheckInput& in;
    const BufferDecl& decl;
    const std::byte* base;
    double cost;  // reference operations per element
    Sample sample;
};

// Elements [b, e) of the sample, in batches: the reference computes a
// batch at a time.
Comparison compare_range(const OutputCheck& c, std::uint64_t b, std::uint64_t e, std::uint64_t batch)
{
    std::vector<std::uint64_t> idx;
    std::vector<double> expected, scale;
    Comparison part;
    for (std::uint64_t s = b; s < e; s += batch) {
        const std::uint64_t n = std::min(batch, e - s);
        idx.resize(n);
        for (std::uint64_t k = 0; k < n; ++k) idx[k] = c.sample.index(s + k);
        expected.assign(n, 0.0);
        scale.assign(n, std::numeric_limits<double>::quiet_NaN());
        c.spec.reference(c.in.params, c.in.buffers, c.decl.name, idx, expected, scale);
        for (std::uint64_t k = 0; k < n; ++k)
            part.judge(c.in.task.tolerance, c.base, c.decl.type, idx[k], expected[k], scale[k]);
    }
    return part;
}

Comparison compare_with_reference(const OutputCheck& c)
{
    // A costly reference (TaskSpec::reference_cost) gets the whole sample
    // at once and spreads it over the threads itself: matmul then gathers
    // each column of q once, not once an element (commit 1be5705 has the
    // times). A cheap one gets batches, spread here.
    if (c.cost > kCostlyReference) return compare_range(c, 0, c.sample.size, std::max<std::uint64_t>(c.sample.size, 1));
    const auto batch = static_cast<std::uint64_t>(std::clamp((1u << 16) / c.cost, 64.0, double(1u << 16)));
    Comparison whole;
    std::mutex m;
    parallel_for(
        c.sample.size,
        [&](std::uint64_t b, std::uint64_t e) {
            const Comparison part = compare_range(c, b, e, batch);
            std::lock_guard lock(m);
            whole.merge(part);
        },
        /*grain=*/batch);
    return whole;
}

std::string error_line(double max_abs, double max_rel, const Tolerance& tol)
{
    return fmt::format("max abs error {:.3g}, max rel error {:.3g} (tolerance: rel {:.1g})", max_abs, max_rel,
                       tol.rtol);
}

// The summary and details of the first output that fails.
void describe_failure(CheckResult& result, const OutputCheck& c, const PoisonScan& unwritten, const Comparison& cmp,
                      const std::string& what)
{
    const BufferDecl& d = c.decl;
    const std::uint64_t count = d.count;
    if (unwritten.count > 0 && unwritten.first <= cmp.first.index) {
        result.kind = CheckResult::Kind::unwritten;
        result.summary = fmt::format("{}[{}] was never written ({}): {} of {} elements were left unwritten", d.name,
                                     unwritten.first, c.spec.locate(c.in.params, d.name, unwritten.first),
                                     unwritten.count, count);
    } else {
        result.kind = CheckResult::Kind::mismatch;
        result.summary = fmt::format("{}[{}] ({}): expected {}, got {}", d.name, cmp.first.index,
                                     c.spec.locate(c.in.params, d.name, cmp.first.index),
                                     show_value(cmp.first.expected, d.type),
                                     cmp.first.poison ? "nothing (never written)" : show_value(cmp.first.got, d.type));
        result.details.push_back(fmt::format("{} of {} compared elements differ", cmp.wrong, what));
        if (unwritten.count > 0)
            result.details.push_back(fmt::format("{} elements were never written", unwritten.count));
    }
    const Tolerance& tol = c.in.task.tolerance;
    if (tol.kind == Tolerance::Kind::relative) result.details.push_back(error_line(cmp.max_abs, cmp.max_rel, tol));
}

// One output's counts into the result; a line for `passed` when it
// matches, the result's summary when it is the first that does not.
void report_output(CheckResult& result, std::vector<std::string>& passed, const OutputCheck& c,
                   const PoisonScan& unwritten, const Comparison& cmp)
{
    result.checked += c.sample.size;
    result.wrong += cmp.wrong;
    result.unwritten += unwritten.count;
    result.sampled = result.sampled || c.sample.sampled;
    result.max_abs_error = std::max(result.max_abs_error, cmp.max_abs);
    result.max_rel_error = std::max(result.max_rel_error, cmp.max_rel);
    const std::string what = c.sample.sampled ? fmt::format("{} sampled of {}", c.sample.size, c.decl.count)
                                              : fmt::format("{}", c.decl.count);
    if (cmp.wrong == 0 && unwritten.count == 0) {
        passed.push_back(fmt::format("{}: {} elements match", c.decl.name, what));
        return;
    }
    if (!result.ok()) return;  // report the first failing output in full only
    describe_failure(result, c, unwritten, cmp, what);
}

void report_pass(CheckResult& result, const std::vector<std::string>& passed, const Tolerance& tol)
{
    result.summary = passed.empty() ? "no outputs to compare" : passed.front();
    for (std::size_t i = 1; i < passed.size(); ++i) result.summary += "; " + passed[i];
    if (tol.kind == Tolerance::Kind::relative)
        result.details.push_back(error_line(result.max_abs_error, result.max_rel_error, tol));
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

void apply_fills(const std::vector<InputFill>& fills, std::uint64_t seed, CallBuffers& call)
{
    for (const InputFill& f : fills) {
        const RandomStream rs(seed, f.stream);
        if (call.entry(f.buffer).decl.type == ElemType::f32) fill_uniform(call.get<float>(f.buffer), rs, f.lo, f.hi);
        else fill_uniform(call.get<int>(f.buffer), rs, static_cast<std::int64_t>(f.lo), static_cast<std::int64_t>(f.hi), f.fold);
    }
}

namespace {

// The elements that outputs `at` read of one input, sorted, each once.
std::vector<ElementRange> ranges_read(const TaskSpec& spec, const Params& params, const BufferDecl& input,
                                      std::uint64_t outputs, std::span<const std::uint64_t> at)
{
    std::vector<ElementRange> read;
    for (const std::uint64_t i : at) {
        const ElementRange r = spec.reads(params, input, outputs, i);
        if (std::min(r.end, input.count) > r.begin) read.push_back({r.begin, std::min(r.end, input.count)});
    }
    std::sort(read.begin(), read.end(), [](const ElementRange& a, const ElementRange& b) { return a.begin < b.begin; });
    std::vector<ElementRange> merged;
    for (const ElementRange& r : read) {
        if (!merged.empty() && r.begin <= merged.back().end) merged.back().end = std::max(merged.back().end, r.end);
        else merged.push_back(r);
    }
    return merged;
}

}  // namespace

ElementRange TaskSpec::reads(const Params&, const BufferDecl& input, std::uint64_t m, std::uint64_t i) const
{
    const std::uint64_t w = m ? input.count / m : 0;
    return {i * w, (i + 1) * w};
}

void apply_fills_read(const TaskSpec& spec, const Params& params, std::uint64_t seed, CallBuffers& call,
                      std::uint64_t outputs, std::span<const std::uint64_t> at)
{
    for (const InputFill& f : spec.input_fills(params)) {
        const RandomStream rs(seed, f.stream);
        const CallBuffers::Entry& e = call.entry(f.buffer);
        const std::vector<ElementRange> read = ranges_read(spec, params, e.decl, outputs, at);
        parallel_for(read.size(), [&](std::uint64_t b, std::uint64_t end) {
            for (std::uint64_t k = b; k < end; ++k)
                for (std::uint64_t i = read[k].begin; i < read[k].end; ++i) {
                    if (e.decl.type == ElemType::f32) {
                        const auto v = static_cast<float>(rs.real(i, f.lo, f.hi));
                        std::memcpy(e.bytes.data() + 4 * i, &v, 4);
                    } else {
                        const auto v = static_cast<std::int32_t>(rs.folded(
                            i, wire::folded_range(static_cast<std::int64_t>(f.lo), static_cast<std::int64_t>(f.hi), f.fold)));
                        std::memcpy(e.bytes.data() + 4 * i, &v, 4);
                    }
                }
        }, /*grain=*/256);
    }
}

bool all_inputs_filled(const TaskSpec& spec, const Params& params)
{
    const auto fills = spec.input_fills(params);
    for (const BufferDecl& d : spec.buffers(params))
        if (d.role == Role::input &&
            std::none_of(fills.begin(), fills.end(), [&](const InputFill& f) { return f.buffer == d.name; }))
            return false;
    return true;
}

CheckResult compare_outputs(const TaskSpec& spec, const CheckInput& in)
{
    CheckResult result;
    std::vector<std::string> passed;
    for (const auto& entry : in.buffers.entries()) {
        if (entry.decl.role != Role::output) continue;
        const std::byte* base = entry.bytes.data();
        const PoisonScan unwritten =
            without_rightful_poison(spec, in, entry.decl, base, scan_poison(base, entry.decl.count));
        const double cost = std::max(1.0, spec.reference_cost(in.params));
        const OutputCheck output {spec, in, entry.decl, base, cost, choose_sample(entry.decl.count, cost, in)};
        const Comparison cmp = compare_with_reference(output);
        report_output(result, passed, output, unwritten, cmp);
    }
    if (result.ok()) report_pass(result, passed, in.task.tolerance);
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
