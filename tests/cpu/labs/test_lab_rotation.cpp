// rotation's spec: the reference on hand-made small images, where a pixel
// is, and the real-image side (ImageTask: size, fill, output image).
#include <doctest/doctest.h>

#include "course/image_task.h"
#include "course/lab_catalog.h"
#include "course/task_spec.h"
#include "test_support.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace {

using hpclab::OwnedCallBuffers;
using hpclab::Params;
using namespace hpclab::test;

const hpclab::ImageTask& image_task_of(const char* task)
{
    const auto* it = dynamic_cast<const hpclab::ImageTask*>(&spec_of("rotation", task));
    REQUIRE(it != nullptr);
    return *it;
}

}  // namespace

TEST_CASE("rotation: buffers are in and out, width by height floats on the device")
{
    for (const char* task : {"naive", "tiled"}) {
        const auto decls = spec_of("rotation", task).buffers({{"width", 3}, {"height", 2}});
        REQUIRE(decls.size() == 2);
        CHECK(decls[0].name == "in");
        CHECK(decls[0].role == hpclab::Role::input);
        CHECK(decls[1].name == "out");
        CHECK(decls[1].role == hpclab::Role::output);
        for (const auto& d : decls) {
            CHECK(d.count == 6);
            CHECK(d.type == hpclab::ElemType::f32);
            CHECK(d.place == hpclab::Place::device);
        }
    }
}

TEST_CASE("rotation: the reference rotates a 3 x 2 and a 2 x 3 image clockwise, by hand")
{
    for (const char* task : {"naive", "tiled"}) {
        const auto& spec = spec_of("rotation", task);
        {
            // width 3, height 2:   1 2 3    rotated (width 2, height 3):   4 1
            //                      4 5 6                                   5 2
            //                                                              6 3
            const Params params {{"width", 3}, {"height", 2}};
            OwnedCallBuffers b(spec.buffers(params));
            fill<float>(b.view(), "in", {1, 2, 3, 4, 5, 6});
            CHECK(reference_all(spec, params, b.view(), "out") == std::vector<double> {4, 1, 5, 2, 6, 3});
        }
        {
            // width 2, height 3:   1 2      rotated (width 3, height 2):   5 3 1
            //                      3 4                                     6 4 2
            //                      5 6
            const Params params {{"width", 2}, {"height", 3}};
            OwnedCallBuffers b(spec.buffers(params));
            fill<float>(b.view(), "in", {1, 2, 3, 4, 5, 6});
            CHECK(reference_all(spec, params, b.view(), "out") == std::vector<double> {5, 3, 1, 6, 4, 2});
        }
        {
            // One row: the row 1 2 3 4 (height 1) becomes the column 1 2 3 4
            // (width 1), top to bottom.
            const Params params {{"width", 4}, {"height", 1}};
            OwnedCallBuffers b(spec.buffers(params));
            fill<float>(b.view(), "in", {1, 2, 3, 4});
            CHECK(reference_all(spec, params, b.view(), "out") == std::vector<double> {1, 2, 3, 4});
            // The column 1 2 3 4 (width 1) becomes the row 4 3 2 1.
            const Params col {{"width", 1}, {"height", 4}};
            OwnedCallBuffers c(spec.buffers(col));
            fill<float>(c.view(), "in", {1, 2, 3, 4});
            CHECK(reference_all(spec, col, c.view(), "out") == std::vector<double> {4, 3, 2, 1});
        }
    }
}

TEST_CASE("rotation: locate names the output row and column and the input pixel")
{
    const auto& spec = spec_of("rotation", "naive");
    const Params params {{"width", 3}, {"height", 2}};
    // out[3] is row 1, column 1 of the rotated image: input pixel x = 1, y = 0 (the "2").
    CHECK(spec.locate(params, "out", 3) == "row 1, column 1 of the rotated image: input pixel x = 1, y = 0");
    CHECK(spec.locate(params, "out", 0) == "row 0, column 0 of the rotated image: input pixel x = 0, y = 1");
    CHECK(spec.work(params).bytes == doctest::Approx(48));
}

TEST_CASE("rotation: generated pixels are gray levels from 0 to 255, not all equal")
{
    const auto& spec = spec_of("rotation", "tiled");
    const Params params {{"width", 33}, {"height", 17}};
    OwnedCallBuffers b(spec.buffers(params));
    spec.generate(params, 99, b.view());
    const auto in = b.view().get<float>("in");
    bool differ = false;
    for (std::size_t i = 0; i < in.size(); ++i) {
        CHECK(in[i] >= 0.0f);
        CHECK(in[i] < 255.0f);
        differ = differ || in[i] != in[0];
    }
    CHECK(differ);
}

TEST_CASE("rotation: the check is exact and names the pixel of an error")
{
    CHECK(lab_of("rotation").image == "chelsea.pgm");
    const hpclab::TaskInfo& task = task_of("rotation", "tiled");
    const auto& spec = spec_of("rotation", "tiled");
    const Params params {{"width", 3}, {"height", 2}};
    OwnedCallBuffers b(spec.buffers(params));
    fill<float>(b.view(), "in", {1, 2, 3, 4, 5, 6});
    auto check = [&] { return spec.check({.task = task, .params = params, .buffers = b.view()}); };

    fill<float>(b.view(), "out", {4, 1, 5, 2, 6, 3});
    CHECK(check().ok());

    // The image transposed instead of rotated: 1 4 / 2 5 / 3 6.
    fill<float>(b.view(), "out", {1, 4, 2, 5, 3, 6});
    auto res = check();
    CHECK(res.kind == hpclab::CheckResult::Kind::mismatch);
    CHECK(res.summary.find("row 0, column 0 of the rotated image") != std::string::npos);
    CHECK(res.wrong == 6);

    // The last output row never written.
    fill<float>(b.view(), "out", {4, 1, 5, 2, 6, 3});
    auto out = b.view().get<float>("out");
    std::memcpy(&out[4], &hpclab::wire::kPoison32, 4);
    std::memcpy(&out[5], &hpclab::wire::kPoison32, 4);
    res = check();
    CHECK(res.kind == hpclab::CheckResult::Kind::unwritten);
    CHECK(res.summary.find("row 2, column 0") != std::string::npos);
    CHECK(res.unwritten == 2);
}

TEST_CASE("rotation: an image gives the size and the input pixels")
{
    const auto& it = image_task_of("naive");
    hpclab::GrayImage img;
    img.width = 3;
    img.height = 2;
    img.maxval = 255;
    img.pixels = {10, 20, 30, 40, 50, 255};
    const Params params = it.params_for(img);
    CHECK(params == Params {{"width", 3}, {"height", 2}});
    OwnedCallBuffers b(spec_of("rotation", "naive").buffers(params));
    it.fill_from(img, b.view());
    const auto in = b.view().get<float>("in");
    CHECK(std::vector<float>(in.begin(), in.end()) == std::vector<float> {10, 20, 30, 40, 50, 255});
}

TEST_CASE("rotation: the output of a rotated 3 x 2 image is a 2 x 3 image")
{
    const auto& it = image_task_of("tiled");
    const auto& spec = spec_of("rotation", "tiled");
    hpclab::GrayImage img;
    img.width = 3;
    img.height = 2;
    img.maxval = 255;
    img.pixels = {10, 20, 30, 40, 50, 60};
    const Params params = it.params_for(img);
    OwnedCallBuffers b(spec.buffers(params));
    it.fill_from(img, b.view());

    SUBCASE("the rotated pixels, as the reference gives them")
    {
        const auto expected = reference_all(spec, params, b.view(), "out");
        fill<float>(b.view(), "out", std::vector<float>(expected.begin(), expected.end()));
        const hpclab::GrayImage out = it.output_image(params, b.view(), img.maxval);
        CHECK(out.width == 2);
        CHECK(out.height == 3);
        CHECK(out.maxval == 255);
        //   40 10
        //   50 20
        //   60 30
        CHECK(out.pixels == std::vector<std::uint16_t> {40, 10, 50, 20, 60, 30});
    }
    SUBCASE("rounded, clamped to [0, maxval], NaN (never written) as 0")
    {
        fill<float>(b.view(), "out", {4.4f, 1.6f, -3.0f, 300.0f, std::numeric_limits<float>::quiet_NaN(), 99.5f});
        auto out = b.view().get<float>("out");
        std::memcpy(&out[4], &hpclab::wire::kPoison32, 4);  // the poison is a NaN
        const hpclab::GrayImage o = it.output_image(params, b.view(), 100);
        CHECK(o.maxval == 100);
        CHECK(o.pixels == std::vector<std::uint16_t> {4, 2, 0, 100, 0, 100});
    }
}
