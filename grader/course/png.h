// Grayscale images as PNG files, for the docs (the rotation lab's input and
// output, shown in its walkthrough). Uncompressed: the image data goes into
// deflate's stored blocks, so the writer needs no zlib, only PNG's CRC-32
// and zlib's Adler-32. A docs picture of a few hundred pixels a side is a
// few hundred KB either way; a browser opens it as any PNG.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace hpclab {

// PNG's CRC-32 (ISO 3309, as zlib's crc32) and zlib's Adler-32.
std::uint32_t crc32(std::string_view bytes);
std::uint32_t adler32(std::string_view bytes);

// A PNG file of `height` rows of `width` gray samples of `bit_depth` 8 or 16
// bits (samples past the depth's range are a std::invalid_argument).
std::string encode_gray_png(int width, int height, int bit_depth, std::span<const std::uint16_t> samples);

}  // namespace hpclab
