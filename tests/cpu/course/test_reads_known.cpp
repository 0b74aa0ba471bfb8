// A spec whose reads are known (TaskSpec::reads_known) has its large timed
// calls judged on a sample whose inputs are made only where the sample reads
// them (TaskSpec::reads). The claim must hold, or the reference would read
// inputs never made and a correct file would fail: for every spec that makes
// it, at each size of its lab.json up to 8 Mi elements in all and at its timing size (where
// the sample is taken), the reference on the sparse inputs is the reference
// on the whole ones. A spec that reads another element than it says is
// caught by the same comparison.
#include "course/task_spec.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace hpclab;
using hpclab::test::catalog;

namespace {

struct Split {
    std::vector<BufferDecl> inputs, outputs;
};

Split split(const TaskSpec& spec, const Params& params)
{
    Split s;
    for (const BufferDecl& d : spec.buffers(params)) (d.role == Role::input ? s.inputs : s.outputs).push_back(d);
    return s;
}

// The first output whose reference on the sample differs between whole and
// sparse inputs; empty when none does.
std::string sparse_reference_differs(const TaskSpec& spec, const Params& params, std::uint64_t seed)
{
    const Split s = split(spec, params);
    REQUIRE_FALSE(s.outputs.empty());
    const std::uint64_t m = s.outputs.front().count;
    for (const BufferDecl& out : s.outputs) REQUIRE(out.count == m);  // one count for every output
    OwnedCallBuffers whole(s.inputs), sparse(s.inputs);
    apply_fills(spec.input_fills(params), seed, whole.view());
    const std::vector<std::uint64_t> at = sample_indices(m, 600, seed ^ 0x5A);
    for (const BufferDecl& in : s.inputs)
        for (const std::uint64_t i : at) {
            const ElementRange r = spec.reads(params, in, m, i);
            if (r.begin > r.end || r.end > in.count) return in.name + " read past its end";
        }
    apply_fills_read(spec, params, seed, sparse.view(), m, at);
    for (const BufferDecl& out : s.outputs) {
        std::vector<double> want(at.size()), got(at.size());
        std::vector<double> want_scale(at.size(), NAN), got_scale(at.size(), NAN);
        spec.reference(params, whole.view(), out.name, at, want, want_scale);
        spec.reference(params, sparse.view(), out.name, at, got, got_scale);
        for (std::size_t k = 0; k < at.size(); ++k)
            if (want[k] != got[k]) return out.name + "[" + std::to_string(at[k]) + "]";
    }
    return "";
}

// y[i] = x[n - 1 - i], said to read x[i].
class Reversed final : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const auto n = static_cast<std::uint64_t>(p.at("n"));
        return {{"x", ElemType::i32, Place::device, Role::input, n}, {"y", ElemType::i32, Place::device, Role::output, n}};
    }
    std::vector<InputFill> input_fills(const Params&) const override { return {{"x", 1, -1000, 1000}}; }
    bool reads_known(const Params&) const override { return true; }
    void reference(const Params& p, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        const auto n = static_cast<std::uint64_t>(p.at("n"));
        for (std::size_t k = 0; k < idx.size(); ++k) expected[k] = in.get<int>("x")[n - 1 - idx[k]];
    }
};

std::uint64_t total_elements(const TaskSpec& spec, const Params& params)
{
    std::uint64_t n = 0;
    for (const BufferDecl& d : spec.buffers(params)) n += d.count;
    return n;
}

}  // namespace

TEST_CASE("specs whose reads are known: the reference on inputs made only where a sample reads is the reference on the whole inputs")
{
    int checked = 0;
    std::set<std::string> tasks;
    for (const auto& lab : catalog().labs()) {
        if (lab.kind == LabKind::program) continue;
        for (const auto& task : lab.tasks) {
            const TaskSpec* spec = find_task_spec(lab.id, task.id);
            REQUIRE(spec != nullptr);
            std::vector<Params> sizes;
            for (const SizeCase& c : task.sizes)
                if (!c.big && total_elements(*spec, c.params) <= (8u << 20)) sizes.push_back(c.params);
            if (!task.timing.empty()) sizes.push_back(task.timing);
            for (const Params& params : sizes) {
                if (!spec->reads_known(params)) continue;
                CAPTURE(lab.id);
                CAPTURE(task.id);
                CAPTURE(format_params(params));
                // Judged so only in a parent-clock run, whose inputs are all fills.
                CHECK(all_inputs_filled(*spec, params));
                CHECK(sparse_reference_differs(*spec, params, 0xABCDEFull + checked) == "");
                ++checked;
                tasks.insert(lab.id + "/" + task.id);
            }
        }
    }
    // aos_soa's three tasks, streams' two, vecadd1..3's four, stencil's, symbols' poly, rotation's two
    CHECK(tasks.size() >= 13);
}

TEST_CASE("specs whose reads are known: a reference that reads another element than it says is caught")
{
    const Reversed spec;
    CHECK(sparse_reference_differs(spec, {{"n", 100000}}, 42) != "");
}
