#include "course/pgm.h"
#include "course/png.h"
#include "util/text_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace hpclab {

namespace {

class Scanner {
public:
    Scanner(std::string_view b, std::string_view name) : b_(b), name_(name) {}

    [[noreturn]] void fail(const std::string& what) const { throw PgmError(fmt::format("{}: {}", name_, what)); }

    void skip_space_and_comments()
    {
        while (pos_ < b_.size()) {
            if (std::isspace(static_cast<unsigned char>(b_[pos_]))) {
                ++pos_;
            } else if (b_[pos_] == '#') {
                while (pos_ < b_.size() && b_[pos_] != '\n') ++pos_;
            } else {
                break;
            }
        }
    }

    std::uint64_t number(const char* what)
    {
        skip_space_and_comments();
        if (pos_ >= b_.size()) fail(fmt::format("the file ends before the {}", what));
        if (!std::isdigit(static_cast<unsigned char>(b_[pos_])))
            fail(fmt::format("expected the {} (a number), found '{}'", what, printable(b_[pos_])));
        std::uint64_t v = 0;
        while (pos_ < b_.size() && std::isdigit(static_cast<unsigned char>(b_[pos_]))) {
            v = v * 10 + static_cast<unsigned>(b_[pos_++] - '0');
            if (v > (1ull << 40)) fail(fmt::format("the {} is absurdly large", what));
        }
        return v;
    }

    // After maxval in a binary file: exactly one whitespace, then the pixels.
    void single_whitespace()
    {
        if (pos_ >= b_.size() || !std::isspace(static_cast<unsigned char>(b_[pos_])))
            fail("the header must end with one whitespace character before the pixels");
        ++pos_;
    }

    std::size_t pos() const { return pos_; }
    std::size_t remaining() const { return b_.size() - pos_; }

    static std::string printable(char c)
    {
        if (std::isprint(static_cast<unsigned char>(c))) return std::string(1, c);
        return fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    }

private:
    std::string_view b_;
    std::string_view name_;
    std::size_t pos_ = 0;
};

}  // namespace

GrayImage parse_pgm(std::string_view bytes, std::string_view name)
{
    Scanner s(bytes, name);
    if (bytes.size() < 2 || bytes[0] != 'P' || (bytes[1] != '5' && bytes[1] != '2')) {
        std::string start;
        for (std::size_t i = 0; i < std::min<std::size_t>(bytes.size(), 2); ++i) start += Scanner::printable(bytes[i]);
        if (bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '3' || bytes[1] == '6'))
            s.fail("a color (PPM) image; convert it to grayscale PGM first, e.g. with: convert in.ppm -colorspace Gray "
                   "out.pgm");
        s.fail(fmt::format("not a PGM image (it starts with '{}'; a PGM file starts with 'P5' or 'P2')",
                           bytes.empty() ? std::string("nothing: the file is empty") : start));
    }
    const bool binary = bytes[1] == '5';
    Scanner h(bytes.substr(2), name);
    const std::uint64_t w = h.number("width");
    const std::uint64_t hgt = h.number("height");
    const std::uint64_t maxval = h.number("maximum gray value");
    if (w == 0 || hgt == 0) h.fail(fmt::format("the image is {} x {}: it has no pixels", w, hgt));
    if (w > 1u << 20 || hgt > 1u << 20 || w * hgt > kMaxPgmPixels)
        h.fail(fmt::format("the image is {} x {}: larger than hpclab reads ({} pixels at most)", w, hgt,
                           kMaxPgmPixels));
    if (maxval == 0 || maxval > 65535)
        h.fail(fmt::format("the maximum gray value is {}; it must be between 1 and 65535", maxval));

    GrayImage img;
    img.width = static_cast<int>(w);
    img.height = static_cast<int>(hgt);
    img.maxval = static_cast<int>(maxval);
    const std::uint64_t n = w * hgt;
    img.pixels.resize(n);
    if (binary) {
        h.single_whitespace();
        const std::uint64_t bpp = maxval < 256 ? 1 : 2;
        const std::string_view px = bytes.substr(2 + h.pos());
        if (px.size() < n * bpp)
            h.fail(fmt::format("the file is truncated: {} x {} pixels need {} bytes of data, it has {}", w, hgt,
                               n * bpp, px.size()));
        for (std::uint64_t i = 0; i < n; ++i) {
            const auto hi = static_cast<unsigned char>(px[bpp * i]);
            img.pixels[i] = bpp == 1 ? hi : static_cast<std::uint16_t>(hi << 8 | static_cast<unsigned char>(px[2 * i + 1]));
        }
    } else {
        for (std::uint64_t i = 0; i < n; ++i) {
            const std::uint64_t v = h.number(i == 0 ? "first pixel" : "next pixel");
            img.pixels[i] = static_cast<std::uint16_t>(std::min<std::uint64_t>(v, 65535));
        }
    }
    for (std::uint64_t i = 0; i < n; ++i)
        if (img.pixels[i] > maxval)
            h.fail(fmt::format("pixel {} (row {}, column {}) is {}, above the maximum gray value {}", i, i / w, i % w,
                               img.pixels[i], maxval));
    return img;
}

GrayImage read_pgm(const std::filesystem::path& path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw PgmError(path.string() + ": no such file");
    if (std::filesystem::is_directory(path, ec)) throw PgmError(path.string() + ": is a folder, not an image");
    const auto bytes = read_text_file(path);
    if (!bytes) throw PgmError(path.string() + ": cannot be read");
    return parse_pgm(*bytes, path.string());
}

void write_pgm(const std::filesystem::path& path, const GrayImage& img)
{
    std::ofstream out(path, std::ios::binary);
    if (!out) throw PgmError(path.string() + ": cannot be written");
    out << "P5\n" << img.width << ' ' << img.height << '\n' << img.maxval << '\n';
    const bool wide = img.maxval > 255;
    std::string data;
    data.reserve(img.pixels.size() * (wide ? 2 : 1));
    for (std::uint16_t p : img.pixels) {
        if (wide) data += static_cast<char>(p >> 8);
        data += static_cast<char>(p & 0xff);
    }
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) throw PgmError(path.string() + ": write failed");
}

std::string png_of(const GrayImage& img)
{
    const int depth = img.maxval > 255 ? 16 : 8;
    const std::uint32_t top = depth == 8 ? 255 : 65535;
    std::vector<std::uint16_t> samples(img.pixels.size());
    for (std::size_t i = 0; i < samples.size(); ++i)  // rounded to the nearest level
        samples[i] = static_cast<std::uint16_t>((std::min<std::uint32_t>(img.pixels[i], img.maxval) * top +
                                                 static_cast<std::uint32_t>(img.maxval) / 2) /
                                                static_cast<std::uint32_t>(img.maxval));
    return encode_gray_png(img.width, img.height, depth, samples);
}

}  // namespace hpclab
