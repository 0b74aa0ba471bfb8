// The tokenizer, winnowing and the skeleton's subtraction, on small texts.
#include "similarity/fingerprints.h"
#include "similarity/own_code.h"
#include "similarity/tokens.h"

#include <doctest/doctest.h>

using namespace hpclab;

namespace {

std::string texts(std::string_view source)
{
    std::string out;
    for (const Token& t : cuda_tokens(source)) out += (out.empty() ? "" : " ") + t.text;
    return out;
}

double score(const std::string& a, const std::string& b, const std::string& skeleton = "")
{
    const WinnowSettings s;
    const auto base = skeleton_kgrams(skeleton, s);
    const OwnCode x = own_code(a, base, s), y = own_code(b, base, s);
    return similarity_score(shared_hashes(x, y).size(), x, y);
}

}  // namespace

TEST_CASE("similarity: tokens drop comments and layout, and make names and literals alike")
{
    CHECK(texts("int idx = threadIdx.x + 1; // the index\n/* more */ c[idx] = 2.5e-3f;") ==
          "int I = threadIdx . I + N ; I [ I ] = N ;");
    CHECK(texts("add<<<(n + 255) / 256, 256>>>(a, b);") == "I <<< ( I + N ) / N , N >>> ( I , I ) ;");
    CHECK(texts("printf(\"a \\\" // not a comment\\n\"); x += 'c';") == "printf ( S ) ; I += C ;");
    CHECK(texts("__global__ void k() { __syncthreads(); atomicAdd(p, 1); cudaMalloc(&p, 4); }") ==
          "__global__ void I ( ) { __syncthreads ( ) ; atomicAdd ( I , N ) ; cudaMalloc ( & I , N ) ; }");
}

TEST_CASE("similarity: tokens keep their lines, and bad input ends a token instead of throwing")
{
    const auto t = cuda_tokens("a\n/* two\nlines */ b\n\"open string\nc");
    REQUIRE(t.size() == 4);
    CHECK(t[0].line == 1);
    CHECK(t[1].line == 3);
    CHECK(t[2].text == "S");
    CHECK(t[3].line == 5);
    CHECK(cuda_tokens("/* never closed").empty());
    CHECK(cuda_tokens(std::string("\xff\x00@", 3)).size() == 3);
}

TEST_CASE("similarity: winnowing finds every shared run of k + w - 1 tokens, and keeps one fingerprint a window")
{
    const WinnowSettings s;
    const std::string run = "for (int i = 0; i < n; ++i) { s += v[i] * w[i]; }";
    CHECK(score("int a = b * 3 - c; " + run, run + " float q = r / 2;") > 0);
    const auto tokens = cuda_tokens(run);
    const auto prints = winnow(tokens, s);
    const std::size_t kgrams = tokens.size() - s.k + 1;
    CHECK(prints.size() >= kgrams / s.w);
    CHECK(prints.size() <= kgrams);
    CHECK(winnow(cuda_tokens("a b"), s).empty());
}

TEST_CASE("similarity: renamed names are the same code, but a name used twice is not two names")
{
    const std::string a = "s = v * w + 1; t = s - v; if (t < n) out[t] = in[t] * 2;";
    CHECK(score(a, "p = q * r + 1; u = p - q; if (u < m) o[u] = i[u] * 2;") == doctest::Approx(1.0));
    const auto kgram = [](const std::string& five) { return kgram_hashes(cuda_tokens(five), 5).at(0); };
    CHECK(kgram("v * w + 1") == kgram("q * r + 2"));
    CHECK(kgram("v * w + 1") != kgram("v * v + 1"));
}

TEST_CASE("similarity: what the skeleton holds is nobody's own code")
{
    const std::string skeleton = "void f(int *a, int n) {\n    for (int i = 0; i < n; ++i) a[i] = 0;\n}\n";
    const WinnowSettings s;
    CHECK(own_code(skeleton, skeleton_kgrams(skeleton, s), s).prints.empty());
    CHECK(score(skeleton, skeleton, skeleton) == 0);
    const std::string own = skeleton + "int g(int x) { while (x > 1) x = x % 2 ? 3 * x + 1 : x / 2; return x; }\n";
    CHECK(score(own, own, skeleton) == doctest::Approx(1.0));
}
