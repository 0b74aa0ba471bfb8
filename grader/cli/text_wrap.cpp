#include "text_wrap.h"

namespace hpclab::cli {

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

}  // namespace hpclab::cli
