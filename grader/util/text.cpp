#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace hpclab {

std::string upper(std::string_view s)
{
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

std::string trimmed(std::string_view text)
{
    std::string s(text);
    const auto not_space = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
    s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
    return s;
}

std::string trimmed_lower(std::string_view text)
{
    std::string s = trimmed(text);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string indent(const std::string& text, const std::string& pad)
{
    std::istringstream in(text);
    std::string line, out;
    while (std::getline(in, line)) out += pad + line + '\n';
    return out;
}

std::string first_lines(const std::string& text, std::size_t n)
{
    std::string out;
    std::size_t pos = 0;
    for (std::size_t i = 0; i < n && pos < text.size(); ++i) {
        const std::size_t end = text.find('\n', pos);
        out += (out.empty() ? "" : " / ") + text.substr(pos, end == std::string::npos ? end : end - pos);
        if (end == std::string::npos) break;
        pos = end + 1;
    }
    return out;
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

std::string shortened(std::string_view text, std::size_t width)
{
    if (text.size() <= width) return std::string(text);
    std::size_t cut = text.rfind(' ', width - 1);  // room for the "…" after it
    if (cut == std::string_view::npos || cut == 0) cut = width - 1;
    std::string out(text.substr(0, cut));
    while (!out.empty() && (out.back() == ' ' || out.back() == ',' || out.back() == ':' || out.back() == ';')) out.pop_back();
    return out + "…";
}

std::string wrap(std::string_view text, std::size_t width, std::string_view indent)
{
    std::string out, line;
    auto flush = [&] {
        if (line.empty()) return;
        out.append(indent).append(line).push_back('\n');
        line.clear();
    };
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t start = text.find_first_not_of(' ', pos);
        if (start == std::string_view::npos) break;
        std::size_t end = text.find(' ', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view word = text.substr(start, end - start);
        if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) flush();
        if (!line.empty()) line.push_back(' ');
        line.append(word);
        pos = end;
    }
    flush();
    return out;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b)
{
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

std::string closest(std::string_view word, const std::vector<std::string>& candidates)
{
    std::string best;
    std::size_t best_d = std::min<std::size_t>(3, word.size());
    for (const auto& c : candidates)
        if (const std::size_t d = edit_distance(word, c); d < best_d) {
            best_d = d;
            best = c;
        }
    return best;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates)
{
    const std::string c = closest(word, candidates);
    return c.empty() ? "" : " Did you mean '" + c + "'?";
}

std::string markdown_cell(std::string_view s)
{
    std::string out;
    for (char c : s) {
        if (c == '|') out += "\\|";
        else if (c == '\n') out += ' ';
        else out += c;
    }
    return out;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to)
{
    if (from.empty()) return text;
    for (std::size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += to.size())
        text.replace(pos, from.size(), to);
    return text;
}

}  // namespace hpclab
