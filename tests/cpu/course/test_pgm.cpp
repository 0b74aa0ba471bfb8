// PGM images: what the rotation lab reads and writes. Valid files of every
// kind load; broken ones are refused with a message that says what is wrong.
#include "course/pgm.h"
#include "test_support.h"

#include <doctest/doctest.h>

using namespace hpclab;
using hpclab::test::TempDir;

namespace {

std::string error_of(const std::string& bytes)
{
    try {
        parse_pgm(bytes, "img.pgm");
    } catch (const PgmError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("pgm: binary 8-bit with comments")
{
    const std::string file = std::string("P5\n# a comment\n3 2\n# another\n255\n") + "\x01\x02\x03\x04\x05\xff";
    const GrayImage img = parse_pgm(file, "x");
    CHECK(img.width == 3);
    CHECK(img.height == 2);
    CHECK(img.maxval == 255);
    CHECK(img.pixels == std::vector<std::uint16_t> {1, 2, 3, 4, 5, 255});
}

TEST_CASE("pgm: binary 16-bit is big-endian")
{
    const std::string file = std::string("P5 2 1 65535\n") + std::string("\x01\x02\xff\xfe", 4);
    const GrayImage img = parse_pgm(file, "x");
    CHECK(img.pixels == std::vector<std::uint16_t> {0x0102, 0xfffe});
}

TEST_CASE("pgm: plain (P2) text")
{
    const GrayImage img = parse_pgm("P2\n2 2\n15\n0 5\n10 15\n", "x");
    CHECK(img.maxval == 15);
    CHECK(img.pixels == std::vector<std::uint16_t> {0, 5, 10, 15});
}

TEST_CASE("pgm: broken files are refused with the reason")
{
    CHECK(error_of("").find("the file is empty") != std::string::npos);
    CHECK(error_of("PK\x03\x04 zip").find("not a PGM image (it starts with 'PK'") != std::string::npos);
    CHECK(error_of("P6 1 1 255 abc").find("color (PPM)") != std::string::npos);
    CHECK(error_of("P5 0 3 255\n").find("no pixels") != std::string::npos);
    CHECK(error_of("P5 3 2 0\n").find("maximum gray value is 0") != std::string::npos);
    CHECK(error_of("P5 3 2 70000\n").find("maximum gray value is 70000") != std::string::npos);
    CHECK(error_of("P5 3 2 255\nabc").find("truncated: 3 x 2 pixels need 6 bytes of data, it has 3") !=
          std::string::npos);
    CHECK(error_of("P5 3").find("ends before the height") != std::string::npos);
    CHECK(error_of("P5 x 2 255\n").find("expected the width") != std::string::npos);
    CHECK(error_of("P5 100000000 100000000 255\n").find("larger than hpclab reads") != std::string::npos);
    CHECK(error_of("P2 2 1 10\n5 11\n").find("above the maximum gray value") != std::string::npos);
    CHECK(error_of("P5 1 1 255").find("one whitespace") != std::string::npos);
    CHECK(error_of("P5 1 1 255\n").find("truncated") != std::string::npos);
}

TEST_CASE("pgm: files: missing, a folder, and a write-read round trip")
{
    TempDir dir;
    CHECK_THROWS_WITH_AS(read_pgm(dir.path() / "nope.pgm"), doctest::Contains("no such file"), PgmError);
    CHECK_THROWS_WITH_AS(read_pgm(dir.path()), doctest::Contains("is a folder"), PgmError);
    for (int maxval : {255, 1023}) {
        GrayImage img;
        img.width = 3;
        img.height = 2;
        img.maxval = maxval;
        img.pixels = {0, 1, 2, 3, 200, static_cast<std::uint16_t>(maxval)};
        write_pgm(dir.path() / "x.pgm", img);
        const GrayImage back = read_pgm(dir.path() / "x.pgm");
        CHECK(back.width == 3);
        CHECK(back.height == 2);
        CHECK(back.maxval == maxval);
        CHECK(back.pixels == img.pixels);
    }
}

TEST_CASE("pgm: the image shipped with the rotation lab loads")
{
    for (const auto& lab : hpclab::test::catalog().labs()) {
        if (lab.image.empty()) continue;
        const GrayImage img = read_pgm(lab.lab_dir / lab.image);
        CHECK(img.width > 0);
        CHECK(img.width != img.height);  // non-square, so that the rotation shows
    }
}
