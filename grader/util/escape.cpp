#include "util/escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace hpclab {

namespace {

// The length of the valid UTF-8 sequence at s[i] and its code point, or 0.
std::size_t utf8_at(std::string_view s, std::size_t i, char32_t& cp)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    std::size_t n = 0;
    if (c < 0x80) n = 1, cp = c;
    else if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
    else return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(k) & 0x3F);
    }
    const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    return overlong || surrogate || cp > 0x10FFFF ? 0 : n;
}

// Characters that act on a reader rather than show: C0, DEL, C1, the line
// and paragraph separators, and the bidirectional embeddings, overrides and
// isolates (text that reads otherwise than it is).
bool acts(char32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F || cp == 0x061C;
}

}  // namespace

std::string escaped_text(std::string_view s, bool keep_lines)
{
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const std::size_t n = utf8_at(s, i, cp);
        if (n == 0) {
            out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i]));
            ++i;
            continue;
        }
        if (!acts(cp) || (keep_lines && (cp == '\n' || cp == '\t'))) out.append(s.substr(i, n));
        else if (cp == '\n') out += "\\n";
        else if (cp == '\t') out += "\\t";
        else if (cp == '\r') out += "\\r";
        else if (cp < 0x80) out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
        else out += fmt::format("\\u{{{:04x}}}", static_cast<std::uint32_t>(cp));
        i += n;
    }
    return out;
}

std::size_t first_non_utf8(std::string_view s)
{
    char32_t cp = 0;
    for (std::size_t i = 0, n = 0; i < s.size(); i += n)
        if ((n = utf8_at(s, i, cp)) == 0) return i;
    return std::string_view::npos;
}

std::string for_terminal(std::string_view s) { return escaped_text(s); }

std::string for_markdown(std::string_view s)
{
    std::string out;
    for (char c : escaped_text(s)) {
        if (std::string_view("\\`*_[]<>|#!~&").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

std::string markdown_code_block(std::string_view text)
{
    std::string body = escaped_text(text, true);
    if (!body.empty() && body.back() != '\n') body += '\n';
    std::size_t longest = 0, run = 0;
    for (char c : body) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    return fence + "\n" + body + fence + "\n";
}

std::string for_csv(std::string_view s)
{
    std::string f = escaped_text(s);
    const bool formula = !f.empty() && (f[0] == '=' || f[0] == '+' || f[0] == '@' ||
                                        (f[0] == '-' && f.size() > 1 && !std::isdigit(static_cast<unsigned char>(f[1]))));
    return formula ? "'" + f : f;
}

std::string for_json(std::string_view s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const std::size_t n = utf8_at(s, i, cp);
        if (n == 0) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i++]));
        else out.append(s.substr(i, n)), i += n;
    }
    return out;
}

std::string for_cmake(std::string_view s)
{
    std::string out;
    for (char c : s) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '"': out += "\\\""; break;
        case '$': out += "\\$"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        default: out += c;
        }
    }
    return out;
}

std::string for_svg(std::string_view s)
{
    std::string out;
    for (char c : escaped_text(s)) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

}  // namespace hpclab
