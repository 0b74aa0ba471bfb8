// Grayscale images in the PGM format (netpbm): P5 (binary) and P2 (text),
// 8 or 16 bits per pixel. The rotation lab reads one and writes its result
// as one, which any image viewer opens.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

struct GrayImage {
    int width = 0;
    int height = 0;
    int maxval = 255;                    // 1..65535
    std::vector<std::uint16_t> pixels;   // row-major, height rows of width pixels
};

// A file that is not a PGM image we can read; the message says why, and where.
struct PgmError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Largest image accepted from a file (pixels), to fail clearly rather than
// run out of memory on a corrupt header.
inline constexpr std::uint64_t kMaxPgmPixels = 1ull << 30;

GrayImage parse_pgm(std::string_view bytes, std::string_view name);
GrayImage read_pgm(const std::filesystem::path& path);
void write_pgm(const std::filesystem::path& path, const GrayImage& image);

// The image as a PNG file (course/png.h), for the docs: 8 bits a pixel up to
// a maxval of 255, else 16, each gray level scaled to the full range
// (white stays white whatever the maxval).
std::string png_of(const GrayImage& image);

}  // namespace hpclab
