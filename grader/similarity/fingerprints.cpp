#include "similarity/fingerprints.h"

#include "util/mix64.h"

#include <algorithm>

namespace hpclab {

namespace {

std::uint64_t token_hash(const std::string& text)
{
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

// Baker's parameterised matching ("A program for identifying duplicated
// code", 1992): a name the student chose counts by where it was last seen
// in the k-gram (1 to k-1 tokens back, 0: not in it), not by what it is
// called, so that "a[i] + b[i]" and "x[j] + y[j]" are the same k-gram but
// "a[i] + a[i]" is not.
std::uint64_t name_distance(const std::vector<Token>& tokens, std::size_t start, std::size_t j)
{
    if (tokens[start + j].text != "I") return 0;
    for (std::size_t back = 1; back <= j; ++back)
        if (tokens[start + j - back].text == "I" && tokens[start + j - back].raw == tokens[start + j].raw) return back;
    return 0;
}

}  // namespace

std::vector<std::uint64_t> kgram_hashes(const std::vector<Token>& tokens, std::size_t k)
{
    std::vector<std::uint64_t> out;
    if (k == 0 || tokens.size() < k) return out;
    std::vector<std::uint64_t> each(tokens.size());
    std::transform(tokens.begin(), tokens.end(), each.begin(), [](const Token& t) { return token_hash(t.text); });
    for (std::size_t i = 0; i + k <= tokens.size(); ++i) {
        std::uint64_t h = 0;
        for (std::size_t j = 0; j < k; ++j) h = mix64(h ^ each[i + j] ^ (name_distance(tokens, i, j) << 56));
        out.push_back(h);
    }
    return out;
}

std::vector<Fingerprint> winnow(const std::vector<Token>& tokens, const WinnowSettings& settings)
{
    const std::vector<std::uint64_t> h = kgram_hashes(tokens, settings.k);
    std::vector<Fingerprint> out;
    if (h.empty()) return out;
    const std::size_t w = std::min(std::max<std::size_t>(settings.w, 1), h.size());
    std::size_t last = h.size();  // the position last kept
    for (std::size_t start = 0; start + w <= h.size(); ++start) {
        std::size_t min = start;
        for (std::size_t i = start; i < start + w; ++i)
            if (h[i] <= h[min]) min = i;  // the rightmost minimum
        if (min == last) continue;
        last = min;
        out.push_back({h[min], tokens[min].line, tokens[min + settings.k - 1].line});
    }
    return out;
}

}  // namespace hpclab
