#include "similarity/lab_similarity.h"

#include "util/parallel.h"

#include <algorithm>
#include <mutex>
#include <tuple>

namespace hpclab {

namespace {

// The tokens as written, comments and white space dropped: the solution
// retyped, or reformatted, but not renamed.
std::vector<std::string> raw_tokens(const std::string& source)
{
    std::vector<std::string> out;
    for (const Token& t : cuda_tokens(source)) out.push_back(t.raw);
    return out;
}

// Every pair of `files` (and each file with the solution, index n) scoring
// at least kListedFrom. The rows of the n x n triangle run in parallel: a
// class of hundreds is tens of thousands of pairs.
std::vector<SimilarPair> listed_pairs(const LabSimilarity& lab)
{
    const std::size_t n = lab.files.size();
    std::vector<SimilarPair> out;
    std::mutex m;
    parallel_for(
        n,
        [&](std::uint64_t begin, std::uint64_t end) {
            std::vector<SimilarPair> found;
            for (std::size_t a = begin; a < end; ++a)
                for (std::size_t b = a + 1; b <= n; ++b) {
                    const OwnCode& other = b == n ? lab.solution : lab.files[b];
                    const std::size_t shared = shared_hashes(lab.files[a], other).size();
                    const double score = similarity_score(shared, lab.files[a], other);
                    if (score >= kListedFrom) found.push_back({a, b, shared, score});
                }
            const std::lock_guard lock(m);
            out.insert(out.end(), found.begin(), found.end());
        },
        16);
    std::sort(out.begin(), out.end(), [](const SimilarPair& x, const SimilarPair& y) {
        return x.score != y.score ? x.score > y.score : std::tie(x.a, x.b) < std::tie(y.a, y.b);
    });
    return out;
}

}  // namespace

LabSimilarity compare_lab(const std::string& lab, const LookScore& look, const std::string& skeleton,
                          const std::string& solution, const std::vector<HandedIn>& files,
                          const WinnowSettings& settings)
{
    LabSimilarity out {.lab = lab, .look_score = look};
    const auto base = skeleton_kgrams(skeleton, settings);
    out.solution = own_code(solution, base, settings);
    const auto solution_raw = raw_tokens(solution);
    for (std::size_t i = 0; i < files.size(); ++i) {
        out.students.push_back(files[i].student);
        out.files.push_back(own_code(files[i].source, base, settings));
        if (!solution_raw.empty() && raw_tokens(files[i].source) == solution_raw) out.equal_to_solution.push_back(i);
    }
    out.pairs = listed_pairs(out);
    return out;
}

}  // namespace hpclab
