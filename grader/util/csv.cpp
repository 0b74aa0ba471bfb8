#include "util/csv.h"

#include "util/escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace hpclab {

std::vector<CsvRow> parse_csv(std::string_view text, char separator)
{
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    std::vector<CsvRow> rows;
    CsvRow row;
    std::string field;
    bool quoted = false, any = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        any = true;
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == separator) {
            row.push_back(std::move(field));
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
            any = false;
        } else {
            field += c;
        }
    }
    if (any) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
    }
    return rows;
}

namespace {

void append_utf8(std::string& out, char32_t cp)
{
    if (cp < 0x80) out += static_cast<char>(cp);
    else if (cp < 0x800) out += {static_cast<char>(0xC0 | (cp >> 6)), static_cast<char>(0x80 | (cp & 0x3F))};
    else if (cp < 0x10000)
        out += {static_cast<char>(0xE0 | (cp >> 12)), static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                static_cast<char>(0x80 | (cp & 0x3F))};
    else
        out += {static_cast<char>(0xF0 | (cp >> 18)), static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), static_cast<char>(0x80 | (cp & 0x3F))};
}

std::string utf16_as_utf8(std::string_view bytes, bool big_endian)
{
    const char* name = big_endian ? "UTF-16 BE" : "UTF-16 LE";
    if (bytes.size() % 2) throw std::runtime_error(fmt::format("{} with an odd number of bytes: cut short?", name));
    const auto unit = [&](std::size_t i) {
        const auto a = static_cast<unsigned char>(bytes[i]), b = static_cast<unsigned char>(bytes[i + 1]);
        return static_cast<char32_t>(big_endian ? (a << 8 | b) : (b << 8 | a));
    };
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 2) {
        char32_t cp = unit(i);
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 3 < bytes.size() && unit(i + 2) >= 0xDC00 && unit(i + 2) <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (unit(i + 2) - 0xDC00);
            i += 2;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            throw std::runtime_error(fmt::format("{} with a broken character (an unpaired surrogate) at byte {}", name, i));
        }
        append_utf8(out, cp);
    }
    return out;
}

}  // namespace

std::string spreadsheet_text_as_utf8(std::string_view bytes)
{
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
    else if (bytes.substr(0, 2) == "\xFF\xFE") return utf16_as_utf8(bytes.substr(2), false);
    else if (bytes.substr(0, 2) == "\xFE\xFF") return utf16_as_utf8(bytes.substr(2), true);
    if (bytes.find('\0') != std::string_view::npos)
        throw std::runtime_error("it holds NUL bytes: UTF-16 without a byte-order mark, or not text at all; save it "
                                 "as \"CSV UTF-8\"");
    if (const std::size_t at = first_non_utf8(bytes); at != std::string_view::npos)
        throw std::runtime_error(fmt::format(
            "not UTF-8 (byte 0x{:02x} at offset {} is not): Latin-1 or Windows-1252, probably; save it as \"CSV UTF-8\"",
            static_cast<unsigned char>(bytes[at]), at));
    return std::string(bytes);
}

char csv_separator(std::string_view text)
{
    std::size_t comma = 0, semicolon = 0, tab = 0;
    bool quoted = false;
    for (char c : text) {
        if (c == '"') quoted = !quoted;
        if (quoted) continue;
        if (c == '\n' || c == '\r') break;
        comma += c == ',', semicolon += c == ';', tab += c == '\t';
    }
    if (semicolon > comma && semicolon >= tab) return ';';
    if (tab > comma && tab > semicolon) return '\t';
    return ',';
}

std::string separator_name(char separator)
{
    return separator == '\t' ? "a tab" : fmt::format("'{}'", separator);
}

std::string csv_field(std::string_view field)
{
    if (field.find_first_of(",;\t\"\r\n") == std::string_view::npos) return std::string(field);
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string csv_line(const CsvRow& row)
{
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) line += (i ? "," : "") + csv_field(row[i]);
    return line + "\n";
}

}  // namespace hpclab
