// matmul's spec: the float64 reference and its tolerance scale on products
// computed by hand, where an element is, and the element-wise check.
#include <doctest/doctest.h>

#include "course/lab_catalog.h"
#include "check/plan.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using hpclab::OwnedCallBuffers;
using hpclab::Params;
using namespace hpclab::test;

TEST_CASE("matmul: buffers are p and q in, r out, n by n floats on the device")
{
    for (const char* task : {"naive", "tiled"}) {
        const auto decls = spec_of("matmul", task).buffers({{"n", 5}});
        REQUIRE(decls.size() == 3);
        CHECK(decls[0].name == "p");
        CHECK(decls[1].name == "q");
        CHECK(decls[2].name == "r");
        for (const auto& d : decls) {
            CHECK(d.count == 25);
            CHECK(d.type == hpclab::ElemType::f32);
            CHECK(d.place == hpclab::Place::device);
        }
        CHECK(decls[0].role == hpclab::Role::input);
        CHECK(decls[2].role == hpclab::Role::output);
    }
}

TEST_CASE("matmul: the reference of a 2 x 2 product, by hand")
{
    // p = | 1 -2 |   q = | 5  6 |   p*q = | 1*5 - 2*7   1*6 + 2*8 |  = |  -9  22 |
    //     | 3  4 |       | 7 -8 |         | 3*5 + 4*7   3*6 - 4*8 |    |  43 -14 |
    // scale = sum of |p_ik * q_kj|:         | 5 + 14     6 + 16    |  = |  19  22 |
    //                                       | 15 + 28    18 + 32   |    |  43  50 |
    for (const char* task : {"naive", "tiled"}) {
        const auto& spec = spec_of("matmul", task);
        const Params params {{"n", 2}};
        OwnedCallBuffers b(spec.buffers(params));
        fill<float>(b.view(), "p", {1, -2, 3, 4});
        fill<float>(b.view(), "q", {5, 6, 7, -8});
        std::vector<double> scale;
        const auto expected = reference_all(spec, params, b.view(), "r", &scale);
        CHECK(expected == std::vector<double> {-9, 22, 43, -14});
        CHECK(scale == std::vector<double> {19, 22, 43, 50});
    }
}

TEST_CASE("matmul: the reference of a 3 x 3 product and of a 1 x 1 one, by hand")
{
    const auto& spec = spec_of("matmul", "naive");
    {
        // p = | 1 0 2 |  q = | 1  2  3 |  row 0: (1*1 + 2*7, 1*2 + 2*8, 1*3 + 2*9)       = (15, 18, 21)
        //     | 0 1 0 |      | 4  5  6 |  row 1: row 1 of q                              = (4, 5, 6)
        //     |-1 0 1 |      | 7  8  9 |  row 2: (-1 + 7, -2 + 8, -3 + 9)                = (6, 6, 6)
        const Params params {{"n", 3}};
        OwnedCallBuffers b(spec.buffers(params));
        fill<float>(b.view(), "p", {1, 0, 2, 0, 1, 0, -1, 0, 1});
        fill<float>(b.view(), "q", {1, 2, 3, 4, 5, 6, 7, 8, 9});
        std::vector<double> scale;
        const auto expected = reference_all(spec, params, b.view(), "r", &scale);
        CHECK(expected == std::vector<double> {15, 18, 21, 4, 5, 6, 6, 6, 6});
        CHECK(scale == std::vector<double> {15, 18, 21, 4, 5, 6, 8, 10, 12});
    }
    {
        const Params params {{"n", 1}};
        OwnedCallBuffers b(spec.buffers(params));
        fill<float>(b.view(), "p", {-0.5f});
        fill<float>(b.view(), "q", {4});
        std::vector<double> scale;
        const auto expected = reference_all(spec, params, b.view(), "r", &scale);
        CHECK(expected == std::vector<double> {-2});
        CHECK(scale == std::vector<double> {2});
    }
}

TEST_CASE("matmul: a subset of indices gives the same values as all of them")
{
    const auto& spec = spec_of("matmul", "tiled");
    const Params params {{"n", 3}};
    OwnedCallBuffers b(spec.buffers(params));
    fill<float>(b.view(), "p", {1, 0, 2, 0, 1, 0, -1, 0, 1});
    fill<float>(b.view(), "q", {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const std::vector<std::uint64_t> idx {8, 1};
    std::vector<double> expected(2), scale(2);
    spec.reference(params, b.view(), "r", idx, expected, scale);
    CHECK(expected == std::vector<double> {6, 18});
    CHECK(scale == std::vector<double> {12, 18});
}

TEST_CASE("matmul: the reference agrees with a plain triple loop, for any order of indices")
{
    // The reference takes the indices column by column; the results must
    // land at their own positions whatever the order they come in.
    const auto& spec = spec_of("matmul", "naive");
    const int n = 37;
    const Params params {{"n", n}};
    OwnedCallBuffers b(spec.buffers(params));
    spec.generate(params, 2024, b.view());
    const auto p = b.view().get<float>("p");
    const auto q = b.view().get<float>("q");
    std::vector<std::uint64_t> idx;
    for (std::uint64_t t = 0; t < 500; ++t) idx.push_back((t * 7919) % (n * n));
    std::vector<double> expected(idx.size()), scale(idx.size());
    spec.reference(params, b.view(), "r", idx, expected, scale);
    for (std::size_t t = 0; t < idx.size(); ++t) {
        const std::uint64_t i = idx[t] / n, j = idx[t] % n;
        double sum = 0, abs_sum = 0;
        for (int k = 0; k < n; ++k) {
            const double term = static_cast<double>(p[i * n + k]) * q[k * n + j];
            sum += term;
            abs_sum += std::fabs(term);
        }
        CHECK(expected[t] == doctest::Approx(sum).epsilon(1e-12));
        CHECK(scale[t] == doctest::Approx(abs_sum).epsilon(1e-12));
    }
}

TEST_CASE("matmul: generated inputs lie between -1 and 1, are not all zeros, and p differs from q")
{
    const auto& spec = spec_of("matmul", "naive");
    const Params params {{"n", 64}};
    OwnedCallBuffers b(spec.buffers(params));
    spec.generate(params, 12345, b.view());
    const auto p = b.view().get<float>("p");
    const auto q = b.view().get<float>("q");
    bool negative = false, positive = false, differ = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        CHECK(p[i] >= -1.0f);
        CHECK(p[i] < 1.0f);
        CHECK(q[i] >= -1.0f);
        CHECK(q[i] < 1.0f);
        negative = negative || p[i] < 0;
        positive = positive || p[i] > 0;
        differ = differ || p[i] != q[i];
    }
    CHECK(negative);
    CHECK(positive);
    CHECK(differ);
}

TEST_CASE("matmul: locate, work and reference cost")
{
    const auto& spec = spec_of("matmul", "naive");
    const Params params {{"n", 4}};
    CHECK(spec.locate(params, "r", 0) == "row 0, column 0");
    CHECK(spec.locate(params, "r", 6) == "row 1, column 2");
    CHECK(spec.locate(params, "r", 15) == "row 3, column 3");
    CHECK(spec.work(params).flops == doctest::Approx(2.0 * 64));
    CHECK(spec.work(params).bytes == doctest::Approx(12.0 * 16));
    CHECK(spec.reference_cost({{"n", 23171}}) == doctest::Approx(23171));
}

TEST_CASE("matmul: the check measures errors against the sum of absolute products and names the place of an error")
{
    const hpclab::TaskInfo& task = task_of("matmul", "tiled");
    REQUIRE(task.tolerance.kind == hpclab::Tolerance::Kind::relative);
    const double rtol = task.tolerance.rtol;

    const auto& spec = spec_of("matmul", "tiled");
    const Params params {{"n", 2}};
    OwnedCallBuffers b(spec.buffers(params));
    fill<float>(b.view(), "p", {1, -2, 3, 4});
    fill<float>(b.view(), "q", {5, 6, 7, -8});
    auto r = b.view().get<float>("r");
    auto check = [&] {
        const hpclab::CheckInput in {.task = task, .params = params, .buffers = b.view()};
        return spec.check(in);
    };

    SUBCASE("the right product passes")
    {
        fill<float>(b.view(), "r", {-9, 22, 43, -14});
        CHECK(check().ok());
    }
    SUBCASE("an error within rtol * scale passes, although it is larger than rtol * |r|")
    {
        // r[0] = -9 with scale 19: 0.8 * rtol * 19 > rtol * 9.
        fill<float>(b.view(), "r", {static_cast<float>(-9 + 0.8 * rtol * 19), 22, 43, -14});
        CHECK(check().ok());
    }
    SUBCASE("an error past rtol * scale fails, at row 1, column 1")
    {
        fill<float>(b.view(), "r", {-9, 22, 43, static_cast<float>(-14 + 2 * rtol * 50)});
        const auto res = check();
        CHECK(res.kind == hpclab::CheckResult::Kind::mismatch);
        CHECK(res.summary.find("row 1, column 1") != std::string::npos);
        CHECK(res.wrong == 1);
    }
    SUBCASE("an element left unwritten (poison) is reported as such, at row 1, column 0")
    {
        fill<float>(b.view(), "r", {-9, 22, 43, -14});
        std::memcpy(&r[2], &hpclab::wire::kPoison32, 4);
        const auto res = check();
        CHECK(res.kind == hpclab::CheckResult::Kind::unwritten);
        CHECK(res.summary.find("row 1, column 0") != std::string::npos);
        CHECK(res.unwritten == 1);
    }
}

TEST_CASE("matmul: racecheck runs the tiled task at the size lab.json names, once, and memcheck keeps its sizes")
{
    using namespace hpclab;
    using hpclab::test::catalog;
    const LabInfo& lab = *catalog().find("matmul");
    const TaskInfo& tiled = *lab.find_task("tiled");
    REQUIRE(tiled.racecheck_size);
    CHECK(tiled.racecheck_size->params == Params {{"n", 33}});
    const auto plan = plan_runs(lab, {&tiled}, false, true);
    std::vector<Params> racecheck, memcheck;
    for (const PlannedRun& r : plan) {
        if (r.tool == "racecheck") racecheck.push_back(r.size.params);
        if (r.tool == "memcheck") memcheck.push_back(r.size.params);
    }
    CHECK(racecheck == std::vector<Params> {{{"n", 33}}});
    CHECK(memcheck.size() == 2);
    // The naive task uses no shared memory: no racecheck at all.
    for (const PlannedRun& r : plan_runs(lab, {lab.find_task("naive")}, false, true)) CHECK(r.tool != "racecheck");
}
