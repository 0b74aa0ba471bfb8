// CUDA C as a plagiarism detector reads it: a sequence of tokens with the
// choices that do not change the program made alike. Comments and white
// space are dropped; every identifier the student names becomes "I", every
// number "N", every string 'S' and character 'C' literal one token each;
// keywords, CUDA's built-ins and API names (cuda*, __*, atomic*) stay, so
// that the structure of the code is what is compared. Small on purpose: no
// preprocessor, no parse, only what a lexer must know not to cut a token
// in two.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

struct Token {
    std::string text;  // normalised: "I", "N", "S", "C", or the keyword or operator itself
    std::string raw;   // as written (an identifier's name, a literal)
    int line = 0;      // 1-based
};

// Every token of `source`; never throws (a byte that starts no token is a
// token of its own, an unterminated comment or literal ends at the end).
std::vector<Token> cuda_tokens(std::string_view source);

}  // namespace hpclab
