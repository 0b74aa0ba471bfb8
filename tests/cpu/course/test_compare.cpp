// The element-wise comparison every lab's check starts from: the first
// mismatch is found and described, unwritten elements are told apart, NaN
// never passes, tolerances hold at their edge, large outputs are sampled.
#include "course/task_spec.h"
#include "wire/exchange.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace hpclab;

namespace {

// out[i] = in[i] * 2, as floats or ints; cost per element configurable.
class DoubleIt : public TaskSpec {
public:
    DoubleIt(ElemType type, double cost) : type_(type), cost_(cost) {}
    std::vector<BufferDecl> buffers(const Params& p) const override
    {
        const auto n = static_cast<std::uint64_t>(p.at("n"));
        return {{"x", type_, Place::device, Role::input, n}, {"y", type_, Place::device, Role::output, n}};
    }
    void generate(const Params&, std::uint64_t, CallBuffers&) const override {}
    void reference(const Params&, const CallBuffers& in, std::string_view, std::span<const std::uint64_t> idx,
                   std::span<double> expected, std::span<double>) const override
    {
        for (std::size_t k = 0; k < idx.size(); ++k)
            expected[k] = 2.0 * (type_ == ElemType::f32 ? in.get<float>("x")[idx[k]] : in.get<int>("x")[idx[k]]);
    }
    double reference_cost(const Params&) const override { return cost_; }
    std::string locate(const Params&, std::string_view, std::uint64_t i) const override
    {
        return "element " + std::to_string(i);
    }

private:
    ElemType type_;
    double cost_;
};

struct Fixture {
    Fixture(ElemType type, std::int64_t n, Tolerance tol, double cost = 1)
        : spec(type, cost), params {{"n", n}}, bufs(spec.buffers(params))
    {
        task.id = "t";
        task.tolerance = tol;
        for (std::int64_t i = 0; i < n; ++i) {
            if (type == ElemType::f32) {
                bufs.view().get<float>("x")[i] = 0.5f + float(i);
                bufs.view().get<float>("y")[i] = 1.0f + 2.0f * float(i);
            } else {
                bufs.view().get<int>("x")[i] = int(i) - 3;
                bufs.view().get<int>("y")[i] = 2 * (int(i) - 3);
            }
        }
    }
    CheckResult check() const
    {
        const CheckInput in {.task = task, .params = params, .buffers = bufs.view()};
        return spec.check(in);
    }
    void poison(std::uint64_t i)
    {
        std::memcpy(bufs.view().entry("y").bytes.data() + 4 * i, &wire::kPoison32, 4);
    }

    DoubleIt spec;
    Params params;
    TaskInfo task;
    OwnedCallBuffers bufs;
};

Tolerance exact() { return {}; }
Tolerance relative(double rtol) { return {Tolerance::Kind::relative, rtol, 0}; }

}  // namespace

TEST_CASE("compare: right outputs pass")
{
    Fixture f(ElemType::i32, 100, exact());
    const CheckResult r = f.check();
    CHECK(r.ok());
    CHECK(r.checked == 100);
    CHECK(r.summary.find("100 elements match") != std::string::npos);
}

TEST_CASE("compare: the first mismatch is reported with its place, expected and got")
{
    Fixture f(ElemType::i32, 100, exact());
    f.bufs.view().get<int>("y")[70] = 5;
    f.bufs.view().get<int>("y")[42] = 7;
    const CheckResult r = f.check();
    CHECK(r.kind == CheckResult::Kind::mismatch);
    CHECK(r.wrong == 2);
    CHECK(r.summary == "y[42] (element 42): expected 78, got 7");
}

TEST_CASE("compare: elements still holding the poison are unwritten")
{
    Fixture f(ElemType::i32, 100, exact());
    for (int i = 90; i < 100; ++i) f.poison(i);
    const CheckResult r = f.check();
    CHECK(r.kind == CheckResult::Kind::unwritten);
    CHECK(r.unwritten == 10);
    CHECK(r.summary.find("y[90] was never written") != std::string::npos);
    CHECK(r.summary.find("10 of 100 elements") != std::string::npos);
}

TEST_CASE("compare: a wrong element before the first unwritten one is reported first")
{
    Fixture f(ElemType::i32, 100, exact());
    f.bufs.view().get<int>("y")[3] = 99;
    f.poison(50);
    CHECK(f.check().kind == CheckResult::Kind::mismatch);
}

TEST_CASE("compare: relative tolerance holds at its edge, and NaN never passes")
{
    Fixture f(ElemType::f32, 10, relative(1e-3));
    auto y = f.bufs.view().get<float>("y");
    y[5] = 11.0f * (1 + 0.9e-3f);  // expected 11: within 1e-3
    CHECK(f.check().ok());
    y[5] = 11.0f * (1 + 1.2e-3f);
    const CheckResult r = f.check();
    CHECK(r.kind == CheckResult::Kind::mismatch);
    CHECK(r.max_rel_error > 1e-3);
    y[5] = std::numeric_limits<float>::quiet_NaN();
    CHECK(f.check().kind == CheckResult::Kind::mismatch);
    y[5] = std::numeric_limits<float>::infinity();
    CHECK_FALSE(f.check().ok());
}

TEST_CASE("compare: exact float comparison tells a poison NaN from a value")
{
    Fixture f(ElemType::f32, 4, exact());
    f.poison(2);
    const CheckResult r = f.check();
    CHECK(r.kind == CheckResult::Kind::unwritten);
    CHECK(r.summary.find("y[2]") != std::string::npos);
}

TEST_CASE("compare: a costly reference is sampled, always with the first and last elements")
{
    // 10^6 elements at 10^4 operations each would be 10^10: sampled.
    Fixture f(ElemType::i32, 1000000, exact(), 1e4);
    CHECK(f.check().ok());
    CHECK(f.check().sampled);
    CHECK(f.check().checked < 1000000);
    f.bufs.view().get<int>("y")[999999] = 1;  // the last element is always compared
    CHECK(f.check().kind == CheckResult::Kind::mismatch);
    f.bufs.view().get<int>("y")[999999] = 2 * (999999 - 3);
    f.poison(500000);  // unwritten elements are found over the whole buffer, sampled or not
    CHECK(f.check().kind == CheckResult::Kind::unwritten);
}

TEST_CASE("compare: a sample given by the caller is what is compared, and the poison is still found everywhere")
{
    Fixture f(ElemType::i32, 100000, exact());
    const std::vector<std::uint64_t> sample = sample_indices(100000, 2000, 7);
    REQUIRE(sample.size() == 2000);
    CHECK(std::is_sorted(sample.begin(), sample.end()));
    CHECK(std::adjacent_find(sample.begin(), sample.end()) == sample.end());  // each once
    CHECK(sample.front() == 0);
    CHECK(sample.back() == 99999);
    CheckInput in {.task = f.task, .params = f.params, .buffers = f.bufs.view(), .sample = sample};
    CHECK(f.spec.check(in).ok());
    CHECK(f.spec.check(in).sampled);
    CHECK(f.spec.check(in).checked == 2000);
    // One index the sample misses, and one it holds.
    std::uint64_t missed = 300;
    while (std::binary_search(sample.begin(), sample.end(), missed)) ++missed;
    f.bufs.view().get<int>("y")[missed] = 1;
    CHECK(f.spec.check(in).ok());
    f.bufs.view().get<int>("y")[sample[1000]] = 1;
    const CheckResult r = f.spec.check(in);
    CHECK(r.kind == CheckResult::Kind::mismatch);
    CHECK(r.summary.find("y[" + std::to_string(sample[1000]) + "]") != std::string::npos);
    f.bufs.view().get<int>("y")[sample[1000]] = 2 * (int(sample[1000]) - 3);
    f.poison(missed + 1 < 100000 && !std::binary_search(sample.begin(), sample.end(), missed + 1) ? missed + 1 : missed);
    CHECK(f.spec.check(in).kind == CheckResult::Kind::unwritten);
}
