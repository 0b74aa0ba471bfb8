// The aos_soa lab's spec: the same particles in both layouts give the same
// update, the conversion's reference is the AoS read field by field, the
// bytes each layout moves, and what the check says of right and wrong
// outputs.
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"

#include "../../labs/aos_soa/aos_soa.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace hpclab;
using namespace hpclab::test;

const std::vector<std::string> kFields = {"x", "y", "z", "vx", "vy", "vz", "mass", "charge"};

// Two particles, each field a distinct value: particle i's field f is
// 10 * i + f + 1 (x = 1, y = 2, ..., charge = 8 for particle 0).
std::vector<float> two_particles_aos()
{
    std::vector<float> p;
    for (int i = 0; i < 2; ++i)
        for (int f = 0; f < 8; ++f) p.push_back(static_cast<float>(10 * i + f + 1));
    return p;
}

}  // namespace

TEST_CASE("aos_soa: the AoS is one float buffer of 8 floats a particle, the SoA one buffer per field")
{
    const Params p {{"n", 5}};
    const auto aos = spec_of("aos_soa", "aos").buffers(p);
    REQUIRE(aos.size() == 2);
    CHECK(aos[0].name == "p");
    CHECK(aos[0].count == 40);
    CHECK(aos[0].role == Role::input);
    CHECK(aos[1].name == "xnew");
    CHECK(aos[1].role == Role::output);

    const auto soa = spec_of("aos_soa", "soa").buffers(p);
    REQUIRE(soa.size() == 9);
    for (std::size_t f = 0; f < kFields.size(); ++f) {
        CHECK(soa[f].name == kFields[f]);
        CHECK(soa[f].count == 5);
        CHECK(soa[f].role == Role::input);
    }
    CHECK(soa[8].name == "xnew");

    const auto convert = spec_of("aos_soa", "convert").buffers(p);
    REQUIRE(convert.size() == 9);
    CHECK(convert[0].name == "p");
    for (std::size_t f = 0; f < kFields.size(); ++f) {
        CHECK(convert[f + 1].name == kFields[f]);
        CHECK(convert[f + 1].role == Role::output);
    }
    for (const auto* list : {&aos, &soa, &convert})
        for (const auto& d : *list) {
            CHECK(d.type == ElemType::f32);
            CHECK(d.place == Place::device);
        }
}

TEST_CASE("aos_soa: the bytes each layout moves, per particle: 36 (AoS), 12 (SoA), 64 (conversion)")
{
    const Params p {{"n", 1000}};
    CHECK(spec_of("aos_soa", "aos").work(p).bytes == doctest::Approx(36.0 * 1000));
    CHECK(spec_of("aos_soa", "soa").work(p).bytes == doctest::Approx(12.0 * 1000));
    CHECK(spec_of("aos_soa", "convert").work(p).bytes == doctest::Approx(64.0 * 1000));
}

TEST_CASE("aos_soa: the AoS update moves x by vx * DT, with |x| + |vx * DT| as the tolerance's scale")
{
    // Particle 0: x = 1, vx = 4; particle 1: x = 11, vx = 14.
    const auto& spec = spec_of("aos_soa", "aos");
    const Params p {{"n", 2}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<float>(b.view(), "p", two_particles_aos());
    std::vector<double> scale;
    const auto expected = reference_all(spec, p, b.view(), "xnew", &scale);
    const double dt = static_cast<double>(DT);
    REQUIRE(expected.size() == 2);
    CHECK(expected[0] == doctest::Approx(1 + 4 * dt));
    CHECK(expected[1] == doctest::Approx(11 + 14 * dt));
    CHECK(scale[0] == doctest::Approx(1 + 4 * dt));

    // Where x and vx * DT cancel, the scale stays the size of the terms.
    fill<float>(b.view(), "p", {-0.5f, 0, 0, 50, 0, 0, 0, 0, 2, 0, 0, -3, 0, 0, 0, 0});
    const auto cancel = reference_all(spec, p, b.view(), "xnew", &scale);
    CHECK(std::abs(cancel[0]) < 1e-6);
    CHECK(scale[0] == doctest::Approx(1.0));
}

TEST_CASE("aos_soa: the SoA update of the same particles gives the AoS update's values")
{
    const Params p {{"n", 37}};
    const auto& aos_spec = spec_of("aos_soa", "aos");
    const auto& soa_spec = spec_of("aos_soa", "soa");
    OwnedCallBuffers aos(aos_spec.buffers(p));
    OwnedCallBuffers soa(soa_spec.buffers(p));
    aos_spec.generate(p, 7, aos.view());
    // The same particles laid out as a structure of arrays.
    const auto flat = aos.view().get<float>("p");
    for (std::size_t f = 0; f < kFields.size(); ++f) {
        auto field = soa.view().get<float>(kFields[f]);
        for (std::size_t i = 0; i < 37; ++i) field[i] = flat[i * 8 + f];
    }
    CHECK(reference_all(aos_spec, p, aos.view(), "xnew") == reference_all(soa_spec, p, soa.view(), "xnew"));
}

TEST_CASE("aos_soa: the SoA fills give each field its own values")
{
    const Params p {{"n", 64}};
    const auto& spec = spec_of("aos_soa", "soa");
    OwnedCallBuffers b(spec.buffers(p));
    spec.generate(p, 11, b.view());
    const auto x = b.view().get<float>("x");
    const auto vx = b.view().get<float>("vx");
    CHECK(std::memcmp(x.data(), vx.data(), 64 * sizeof(float)) != 0);
}

TEST_CASE("aos_soa: the conversion's reference of each field is that field of each particle")
{
    const auto& spec = spec_of("aos_soa", "convert");
    const Params p {{"n", 2}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<float>(b.view(), "p", two_particles_aos());
    for (std::size_t f = 0; f < kFields.size(); ++f) {
        CAPTURE(kFields[f]);
        const double first = static_cast<double>(f + 1);
        CHECK(reference_all(spec, p, b.view(), kFields[f]) == std::vector<double> {first, first + 10});
    }
}

TEST_CASE("aos_soa: the check passes a right update and names the particle of a wrong one")
{
    const auto& spec = spec_of("aos_soa", "aos");
    const TaskInfo& task = task_of("aos_soa", "aos");
    const Params p {{"n", 2}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<float>(b.view(), "p", two_particles_aos());
    const CheckInput in {.task = task, .params = p, .buffers = b.view()};

    SUBCASE("right, as a float computes it")
    {
        fill<float>(b.view(), "xnew", {1.0f + 4.0f * DT, 11.0f + 14.0f * DT});
        CHECK(spec.check(in).ok());
    }
    SUBCASE("the old x: the update applied to a copy")
    {
        fill<float>(b.view(), "xnew", {1.0f + 4.0f * DT, 11.0f});
        const CheckResult r = spec.check(in);
        CHECK(r.kind == CheckResult::Kind::mismatch);
        CHECK(r.summary.find("xnew[1] (particle 1)") != std::string::npos);
    }
    SUBCASE("vy for vx: off by far more than a rounding")
    {
        fill<float>(b.view(), "xnew", {1.0f + 5.0f * DT, 11.0f + 15.0f * DT});
        CHECK(spec.check(in).kind == CheckResult::Kind::mismatch);
    }
}

TEST_CASE("aos_soa: the conversion's check names the field and the particle")
{
    const auto& spec = spec_of("aos_soa", "convert");
    const TaskInfo& task = task_of("aos_soa", "convert");
    const Params p {{"n", 2}};
    OwnedCallBuffers b(spec.buffers(p));
    fill<float>(b.view(), "p", two_particles_aos());
    for (std::size_t f = 0; f < kFields.size(); ++f)
        fill<float>(b.view(), kFields[f], {static_cast<float>(f + 1), static_cast<float>(f + 11)});
    const CheckInput in {.task = task, .params = p, .buffers = b.view()};
    CHECK(spec.check(in).ok());

    // The slides' 3-float stride: particle 1's x read at float 3 (particle 0's vx).
    fill<float>(b.view(), "x", {1, 4});
    const CheckResult r = spec.check(in);
    CHECK(r.kind == CheckResult::Kind::mismatch);
    CHECK(r.summary.find("x[1] (particle 1, field x)") != std::string::npos);
}
