#include "util/csv.h"

#include <cctype>

namespace hpclab {

std::vector<CsvRow> parse_csv(std::string_view text)
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
        } else if (c == ',') {
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

std::string csv_field(std::string_view field)
{
    std::string f(field);
    if (!f.empty() && (f[0] == '=' || f[0] == '+' || f[0] == '@' || (f[0] == '-' && f.size() > 1 && !std::isdigit(static_cast<unsigned char>(f[1])))))
        f = "'" + f;
    if (f.find_first_of(",\"\r\n") == std::string::npos) return f;
    std::string out = "\"";
    for (char c : f) {
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
