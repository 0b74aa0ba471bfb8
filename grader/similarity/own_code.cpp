#include "similarity/own_code.h"

#include <algorithm>
#include <iterator>

namespace hpclab {

std::unordered_set<std::uint64_t> skeleton_kgrams(std::string_view skeleton, const WinnowSettings& settings)
{
    const auto hashes = kgram_hashes(cuda_tokens(skeleton), settings.k);
    return {hashes.begin(), hashes.end()};
}

OwnCode own_code(std::string_view source, const std::unordered_set<std::uint64_t>& skeleton,
                 const WinnowSettings& settings)
{
    OwnCode own;
    const std::vector<Token> tokens = cuda_tokens(source);
    for (const Fingerprint& f : winnow(tokens, settings))
        if (!skeleton.count(f.hash)) own.prints.push_back(f);
    std::stable_sort(own.prints.begin(), own.prints.end(),
                     [](const Fingerprint& x, const Fingerprint& y) { return x.hash < y.hash; });
    own.prints.erase(std::unique(own.prints.begin(), own.prints.end(),
                                 [](const Fingerprint& x, const Fingerprint& y) { return x.hash == y.hash; }),
                     own.prints.end());
    std::size_t begin = 0;
    for (std::size_t end; (end = source.find('\n', begin)) != std::string_view::npos; begin = end + 1)
        own.lines.emplace_back(source.substr(begin, end - begin));
    if (begin < source.size()) own.lines.emplace_back(source.substr(begin));
    return own;
}

std::vector<std::uint64_t> shared_hashes(const OwnCode& a, const OwnCode& b)
{
    std::vector<std::uint64_t> out;
    auto i = a.prints.begin(), j = b.prints.begin();
    while (i != a.prints.end() && j != b.prints.end()) {
        if (i->hash < j->hash) ++i;
        else if (j->hash < i->hash) ++j;
        else out.push_back(i->hash), ++i, ++j;
    }
    return out;
}

double similarity_score(std::size_t shared, const OwnCode& a, const OwnCode& b)
{
    const std::size_t all = a.prints.size() + b.prints.size() - shared;
    return all == 0 ? 0.0 : static_cast<double>(shared) / static_cast<double>(all);
}

}  // namespace hpclab
