#include "util/source_encoding.h"

#include <fmt/format.h>

#include <algorithm>

namespace hpclab {

namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// Without a BOM: ASCII text in UTF-16 or UTF-32 has a zero byte beside
// (nearly) every character. Read from the first characters, where a source
// file has its comment or #include; one zero byte alone (a stray NUL) is not
// an encoding.
std::string encoding_from_zero_bytes(std::string_view bytes)
{
    const std::size_t n = std::min<std::size_t>(bytes.size(), 256) & ~std::size_t {3};
    if (n < 4) return {};
    std::size_t zero_at[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < n; ++i)
        if (bytes[i] == '\0') ++zero_at[i % 4];
    const std::size_t quads = n / 4;
    const auto all = [&](std::size_t k) { return zero_at[k] == quads; };
    if (all(1) && all(2) && all(3)) return "UTF-32 (little-endian)";
    if (all(0) && all(1) && all(2)) return "UTF-32 (big-endian)";
    if (all(1) && all(3)) return "UTF-16 (little-endian)";
    if (all(0) && all(2)) return "UTF-16 (big-endian)";
    return {};
}

}  // namespace

std::string unreadable_encoding(std::string_view bytes)
{
    // UTF-32's BOMs first: UTF-32 LE's begins like UTF-16 LE's.
    if (starts_with(bytes, std::string_view("\xFF\xFE\0\0", 4))) return "UTF-32 (little-endian)";
    if (starts_with(bytes, std::string_view("\0\0\xFE\xFF", 4))) return "UTF-32 (big-endian)";
    if (starts_with(bytes, "\xFF\xFE")) return "UTF-16 (little-endian)";
    if (starts_with(bytes, "\xFE\xFF")) return "UTF-16 (big-endian)";
    return encoding_from_zero_bytes(bytes);
}

CompilableSource compilable_source(std::string bytes, std::string_view name)
{
    CompilableSource out;
    if (const std::string encoding = unreadable_encoding(bytes); !encoding.empty()) {
        out.refusal = fmt::format("{} is saved as {}, which the CUDA compiler cannot read: save it as UTF-8 "
                                  "(in most editors: Save As..., Encoding: UTF-8) and check again\n",
                                  name, encoding);
        return out;
    }
    if (starts_with(bytes, kUtf8Bom)) bytes.erase(0, kUtf8Bom.size());
    out.text = std::move(bytes);
    return out;
}

}  // namespace hpclab
