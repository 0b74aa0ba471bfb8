#include "course/png.h"

#include <array>
#include <stdexcept>

namespace hpclab {

namespace {

void put32(std::string& out, std::uint32_t v)
{
    for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xff);
}

// length, type, data, and the CRC of type and data.
void put_chunk(std::string& out, std::string_view type, std::string_view data)
{
    put32(out, static_cast<std::uint32_t>(data.size()));
    const std::string typed = std::string(type) + std::string(data);
    out += typed;
    put32(out, crc32(typed));
}

// A zlib stream of `raw` in stored (uncompressed) deflate blocks.
std::string zlib_stored(std::string_view raw)
{
    constexpr std::size_t kBlock = 65535;  // the most a stored block holds
    std::string out = "\x78\x01";          // deflate, 32 KiB window; no dictionary, check bits
    std::size_t at = 0;
    do {
        const std::size_t n = std::min(kBlock, raw.size() - at);
        const bool last = at + n == raw.size();
        out += static_cast<char>(last ? 1 : 0);  // BFINAL, BTYPE 00
        for (std::uint16_t v : {static_cast<std::uint16_t>(n), static_cast<std::uint16_t>(~n)}) {
            out += static_cast<char>(v & 0xff);  // little-endian, unlike the rest of PNG
            out += static_cast<char>(v >> 8);
        }
        out.append(raw.substr(at, n));
        at += n;
    } while (at < raw.size());
    put32(out, adler32(raw));
    return out;
}

}  // namespace

std::uint32_t crc32(std::string_view bytes)
{
    static const auto table = [] {
        std::array<std::uint32_t, 256> t {};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xffffffffu;
    for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

std::uint32_t adler32(std::string_view bytes)
{
    constexpr std::uint32_t kMod = 65521;
    std::uint32_t a = 1, b = 0;
    for (unsigned char c : bytes) {
        a = (a + c) % kMod;
        b = (b + a) % kMod;
    }
    return b << 16 | a;
}

std::string encode_gray_png(int width, int height, int bit_depth, std::span<const std::uint16_t> samples)
{
    if (width < 1 || height < 1 || (bit_depth != 8 && bit_depth != 16) ||
        samples.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height))
        throw std::invalid_argument("encode_gray_png: bad size or bit depth");
    const std::uint32_t top = bit_depth == 8 ? 0xff : 0xffff;
    std::string raw;  // each row: filter type 0 (none), then its samples, big-endian
    raw.reserve(samples.size() * (bit_depth / 8) + static_cast<std::size_t>(height));
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (i % static_cast<std::size_t>(width) == 0) raw += '\0';
        if (samples[i] > top) throw std::invalid_argument("encode_gray_png: a sample past the bit depth");
        if (bit_depth == 16) raw += static_cast<char>(samples[i] >> 8);
        raw += static_cast<char>(samples[i] & 0xff);
    }
    std::string header;
    put32(header, static_cast<std::uint32_t>(width));
    put32(header, static_cast<std::uint32_t>(height));
    header += {static_cast<char>(bit_depth), 0, 0, 0, 0};  // gray; deflate; adaptive filters; no interlace
    std::string png = "\x89PNG\r\n\x1a\n";
    put_chunk(png, "IHDR", header);
    put_chunk(png, "IDAT", zlib_stored(raw));
    put_chunk(png, "IEND", "");
    return png;
}

}  // namespace hpclab
