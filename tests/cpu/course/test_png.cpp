// PNG files for the docs (course/png.h, hpclab image): decoded here by a
// reader of our own (chunks and their CRCs, the zlib stream's stored blocks
// and its Adler-32, the rows' filter bytes), so that a picture the docs show
// is checked pixel by pixel against the image it was made from.
#include "course/image_task.h"
#include "course/pgm.h"
#include "course/png.h"
#include "util/text_file.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::contains;
using hpclab::test::run_hpclab;
using hpclab::test::TempDir;

namespace {

struct DecodedPng {
    int width = 0, height = 0, bit_depth = 0;
    std::vector<std::uint16_t> samples;
};

std::uint32_t be32(std::string_view b, std::size_t at)
{
    std::uint32_t v = 0;
    for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(b[at + i]);
    return v;
}

// The stored blocks of a zlib stream, joined, its Adler-32 checked.
std::string inflate_stored(std::string_view z)
{
    REQUIRE(z.size() >= 6);
    CHECK((static_cast<unsigned char>(z[0]) * 256 + static_cast<unsigned char>(z[1])) % 31 == 0);
    CHECK((z[0] & 0x0f) == 8);  // deflate
    std::string raw;
    std::size_t at = 2;
    for (bool last = false; !last;) {
        REQUIRE(at + 5 <= z.size());
        last = z[at] & 1;
        REQUIRE((z[at] & 6) == 0);  // BTYPE 00: stored
        const unsigned len = static_cast<unsigned char>(z[at + 1]) | static_cast<unsigned char>(z[at + 2]) << 8;
        const unsigned nlen = static_cast<unsigned char>(z[at + 3]) | static_cast<unsigned char>(z[at + 4]) << 8;
        REQUIRE(len == (~nlen & 0xffff));
        REQUIRE(at + 5 + len <= z.size());
        raw.append(z.substr(at + 5, len));
        at += 5 + len;
    }
    REQUIRE(at + 4 == z.size());
    CHECK(be32(z, at) == adler32(raw));
    return raw;
}

DecodedPng decode(std::string_view png)
{
    REQUIRE(png.substr(0, 8) == std::string_view("\x89PNG\r\n\x1a\n", 8));
    DecodedPng out;
    std::string idat, types;
    for (std::size_t at = 8; at < png.size();) {
        REQUIRE(at + 12 <= png.size());
        const std::uint32_t len = be32(png, at);
        REQUIRE(at + 12 + len <= png.size());
        const std::string_view typed = png.substr(at + 4, 4 + len);
        CHECK(be32(png, at + 8 + len) == crc32(typed));
        const std::string type(typed.substr(0, 4));
        types += type + " ";
        if (type == "IHDR") {
            REQUIRE(len == 13);
            out.width = static_cast<int>(be32(typed, 4));
            out.height = static_cast<int>(be32(typed, 8));
            out.bit_depth = typed[12];
            CHECK(typed.substr(13, 4) == std::string_view("\0\0\0\0", 4));  // gray, deflate, filter 0, no interlace
        }
        if (type == "IDAT") idat.append(typed.substr(4));
        at += 12 + len;
    }
    CHECK(types.rfind("IHDR ", 0) == 0);
    CHECK(types.ends_with("IEND "));
    const std::string raw = inflate_stored(idat);
    const std::size_t bytes = static_cast<std::size_t>(out.bit_depth / 8), row = 1 + bytes * out.width;
    REQUIRE(raw.size() == row * out.height);
    for (int y = 0; y < out.height; ++y) {
        REQUIRE(raw[y * row] == 0);  // filter: none
        for (int x = 0; x < out.width; ++x) {
            const std::size_t at = y * row + 1 + bytes * x;
            const auto hi = static_cast<unsigned char>(raw[at]);
            out.samples.push_back(bytes == 1 ? hi : static_cast<std::uint16_t>(hi << 8 | static_cast<unsigned char>(raw[at + 1])));
        }
    }
    return out;
}

}  // namespace

TEST_CASE("png: CRC-32 and Adler-32 give their published check values")
{
    CHECK(crc32("123456789") == 0xcbf43926u);
    CHECK(crc32("") == 0);
    CHECK(crc32("IEND") == 0xae426082u);  // the CRC every PNG ends with
    CHECK(adler32("Wikipedia") == 0x11e60398u);
    CHECK(adler32("") == 1);
}

TEST_CASE("png: a small 8-bit and a 16-bit image decode to their samples")
{
    const std::vector<std::uint16_t> small = {0, 1, 2, 127, 128, 255};
    DecodedPng d = decode(encode_gray_png(3, 2, 8, small));
    CHECK(d.width == 3);
    CHECK(d.height == 2);
    CHECK(d.bit_depth == 8);
    CHECK(d.samples == small);
    const std::vector<std::uint16_t> wide = {0, 0x0102, 0xfffe, 65535};
    d = decode(encode_gray_png(2, 2, 16, wide));
    CHECK(d.bit_depth == 16);
    CHECK(d.samples == wide);
    CHECK_THROWS_AS(encode_gray_png(2, 1, 8, std::vector<std::uint16_t> {1, 256}), std::invalid_argument);
    CHECK_THROWS_AS(encode_gray_png(2, 2, 8, small), std::invalid_argument);
}

TEST_CASE("png: an image past one stored block (64 KiB) spans several")
{
    const int w = 400, h = 300;  // 120,300 bytes of rows
    std::vector<std::uint16_t> px(static_cast<std::size_t>(w) * h);
    for (std::size_t i = 0; i < px.size(); ++i) px[i] = static_cast<std::uint16_t>((i * 7) % 256);
    const DecodedPng d = decode(encode_gray_png(w, h, 8, px));
    CHECK(d.samples == px);
}

TEST_CASE("png: a PGM's gray levels are scaled to the PNG's full range")
{
    GrayImage img {.width = 4, .height = 1, .maxval = 15, .pixels = {0, 5, 10, 15}};
    DecodedPng d = decode(png_of(img));
    CHECK(d.bit_depth == 8);
    CHECK(d.samples == std::vector<std::uint16_t> {0, 85, 170, 255});
    img.maxval = 1000;
    img.pixels = {0, 500, 999, 1000};
    d = decode(png_of(img));
    CHECK(d.bit_depth == 16);
    CHECK(d.samples == std::vector<std::uint16_t> {0, 32768, 65469, 65535});
}

TEST_CASE("hpclab image: the rotation lab's picture as a PNG, and the CPU reference's rotation of it")
{
    TempDir dir;
    const auto chelsea = test::course_root() / "labs" / "rotation" / "chelsea.pgm";
    const GrayImage input = read_pgm(chelsea);
    const auto png = dir.path() / "in.png";
    ProcessResult r = run_hpclab({"image", chelsea.string(), png.string()});
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    DecodedPng d = decode(read_text_file(png).value_or(""));
    CHECK(d.width == input.width);
    CHECK(d.height == input.height);
    CHECK(d.samples == input.pixels);  // maxval 255: the same levels

    const auto rotated = dir.path() / "rotated.pgm";
    r = run_hpclab({"image", chelsea.string(), rotated.string(), "--reference", "rotation"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "the CPU reference of lab rotation"));
    const GrayImage out = read_pgm(rotated);
    REQUIRE(out.width == input.height);
    REQUIRE(out.height == input.width);
    // 90 degrees clockwise: output row x, column height-1-y is input (x, y).
    for (int y : {0, 17, input.height - 1})
        for (int x : {0, 101, input.width - 1})
            CHECK(out.pixels[static_cast<std::size_t>(x) * out.width + (input.height - 1 - y)] ==
                  input.pixels[static_cast<std::size_t>(y) * input.width + x]);

    CHECK(run_hpclab({"image", chelsea.string(), (dir.path() / "x.jpg").string()}).exit_code == 2);
    CHECK(contains(run_hpclab({"image", (dir.path() / "none.pgm").string(), png.string()}).err, "none.pgm"));
    CHECK(contains(run_hpclab({"image", chelsea.string(), png.string(), "--reference", "vecadd3"}).err,
                   "does not work on images"));
}
