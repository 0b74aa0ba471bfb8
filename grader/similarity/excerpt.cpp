#include "similarity/excerpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace hpclab {

namespace {

std::set<int> covered_lines(const OwnCode& file, const std::vector<std::uint64_t>& shared)
{
    std::set<int> lines;
    for (const Fingerprint& f : file.prints)
        if (std::binary_search(shared.begin(), shared.end(), f.hash))
            for (int l = f.first_line; l <= f.last_line; ++l) lines.insert(l);
    return lines;
}

}  // namespace

std::vector<ExcerptLine> shared_excerpt(const OwnCode& file, const std::vector<std::uint64_t>& shared,
                                        std::size_t max_lines)
{
    std::vector<ExcerptLine> out;
    int previous = 0;
    for (int l : covered_lines(file, shared)) {
        if (out.size() >= max_lines || l < 1 || static_cast<std::size_t>(l) > file.lines.size()) break;
        if (previous && l != previous + 1) out.push_back({0, "..."});
        out.push_back({l, file.lines[l - 1]});
        previous = l;
    }
    return out;
}

std::string covered_ranges(const OwnCode& file, const std::vector<std::uint64_t>& shared)
{
    std::string out;
    const std::set<int> lines = covered_lines(file, shared);
    for (auto it = lines.begin(); it != lines.end();) {
        int last = *it;
        auto next = std::next(it);
        while (next != lines.end() && *next == last + 1) last = *next++;
        out += fmt::format("{}{}", out.empty() ? "" : ", ", *it == last ? fmt::format("{}", *it) : fmt::format("{}-{}", *it, last));
        it = next;
    }
    return out;
}

}  // namespace hpclab
