#include "util/git_blob.h"

#include <fmt/format.h>

#include <array>
#include <cstdint>

namespace hpclab {

namespace {

std::uint32_t rotl(std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// One 64-byte block into the state (FIPS 180-4, 6.1.2).
void sha1_block(std::array<std::uint32_t, 5>& h, const unsigned char* block)
{
    std::array<std::uint32_t, 80> w {};
    for (int i = 0; i < 16; ++i)
        w[i] = std::uint32_t(block[4 * i]) << 24 | std::uint32_t(block[4 * i + 1]) << 16 |
               std::uint32_t(block[4 * i + 2]) << 8 | std::uint32_t(block[4 * i + 3]);
    for (int i = 16; i < 80; ++i) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    std::uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
        const std::uint32_t f = i < 20 ? (b & c) | (~b & d) : i < 40 ? b ^ c ^ d : i < 60 ? (b & c) | (b & d) | (c & d) : b ^ c ^ d;
        const std::uint32_t k = i < 20 ? 0x5A827999 : i < 40 ? 0x6ED9EBA1 : i < 60 ? 0x8F1BBCDC : 0xCA62C1D6;
        const std::uint32_t t = rotl(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rotl(b, 30);
        b = a;
        a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

}  // namespace

std::string sha1_hex(std::string_view bytes)
{
    std::array<std::uint32_t, 5> h {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    // The message, a 1 bit, zeros to 56 mod 64 bytes, and its length in bits.
    std::string padded(bytes);
    padded += '\x80';
    while (padded.size() % 64 != 56) padded += '\0';
    const std::uint64_t bits = std::uint64_t(bytes.size()) * 8;
    for (int i = 7; i >= 0; --i) padded += static_cast<char>((bits >> (8 * i)) & 0xff);
    for (std::size_t at = 0; at < padded.size(); at += 64)
        sha1_block(h, reinterpret_cast<const unsigned char*>(padded.data() + at));
    return fmt::format("{:08x}{:08x}{:08x}{:08x}{:08x}", h[0], h[1], h[2], h[3], h[4]);
}

std::string git_blob_id(std::string_view content)
{
    std::string object = fmt::format("blob {}", content.size());
    object += '\0';
    object += content;
    return sha1_hex(object);
}

}  // namespace hpclab
