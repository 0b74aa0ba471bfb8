#include "similarity/tokens.h"

#include <array>
#include <cctype>
#include <set>

namespace hpclab {

namespace {

// C and C++ keywords a CUDA lab uses, and CUDA's own: the words that give
// code its shape. Every other name is the student's choice.
const std::set<std::string_view>& kept_words()
{
    static const std::set<std::string_view> words = {
        "auto", "bool", "break", "case", "char", "const", "constexpr", "continue", "default", "do", "double", "else",
        "enum", "extern", "false", "float", "for", "goto", "if", "inline", "int", "long", "nullptr", "return", "short",
        "signed", "sizeof", "static", "static_cast", "reinterpret_cast", "struct", "switch", "template", "true",
        "typedef", "typename", "union", "unsigned", "void", "volatile", "while", "size_t", "NULL",
        "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3", "float2", "float4", "int2", "int4",
        "min", "max", "malloc", "free", "memcpy", "memset", "printf", "std", "cub", "thrust"};
    return words;
}

bool kept(std::string_view word)
{
    const auto starts = [&](std::string_view p) { return word.substr(0, p.size()) == p; };
    return kept_words().count(word) || starts("__") || starts("cuda") || starts("atomic");
}

// Operators of more than one character, longest first (maximal munch).
constexpr std::array<std::string_view, 25> kOperators = {
    "<<<", ">>>", "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==",
    "!=",  "&&",  "||",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "::"};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Lexer {
public:
    explicit Lexer(std::string_view s) : s_(s) {}

    std::vector<Token> run()
    {
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\n') ++line_, ++i_;
            else if (std::isspace(static_cast<unsigned char>(c))) ++i_;
            else if (at("//")) skip_to("\n", false);
            else if (at("/*")) skip_to("*/", true);
            else if (c == '"' || c == '\'') literal(c);
            else if (std::isdigit(static_cast<unsigned char>(c)) ||
                     (c == '.' && i_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_ + 1]))))
                number();
            else if (ident_char(c)) word();
            else punctuation();
        }
        return std::move(out_);
    }

private:
    bool at(std::string_view p) const { return s_.substr(i_, p.size()) == p; }

    void emit(std::string text, std::size_t begin, int line)
    {
        out_.push_back({std::move(text), std::string(s_.substr(begin, i_ - begin)), line});
    }

    // Skips to past `end` (or the end of the text), counting lines.
    void skip_to(std::string_view end, bool past)
    {
        const std::size_t at_end = s_.find(end, i_ + 2);
        const std::size_t stop = at_end == std::string_view::npos ? s_.size() : at_end + (past ? end.size() : 0);
        for (; i_ < stop; ++i_) line_ += s_[i_] == '\n';
    }

    void literal(char quote)
    {
        const std::size_t begin = i_++;
        const int line = line_;
        while (i_ < s_.size() && s_[i_] != quote && s_[i_] != '\n') {
            if (s_[i_] == '\\' && i_ + 1 < s_.size()) line_ += s_[++i_] == '\n';
            ++i_;
        }
        if (i_ < s_.size() && s_[i_] == quote) ++i_;  // unterminated: it ends at the line's end
        emit(quote == '"' ? "S" : "C", begin, line);
    }

    // 12, 0x1f, 1.5e-3f, 1'000: digits, letters, dots, and a sign after an exponent.
    void number()
    {
        const std::size_t begin = i_;
        while (i_ < s_.size()) {
            const char c = s_[i_];
            const char prev = i_ > begin ? s_[i_ - 1] : '\0';
            const bool sign = (c == '+' || c == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
            if (!(ident_char(c) || c == '.' || c == '\'' || sign)) break;
            ++i_;
        }
        emit("N", begin, line_);
    }

    void word()
    {
        const std::size_t begin = i_;
        while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
        const std::string_view w = s_.substr(begin, i_ - begin);
        emit(kept(w) ? std::string(w) : "I", begin, line_);
    }

    void punctuation()
    {
        const std::size_t begin = i_;
        std::size_t length = 1;
        for (std::string_view op : kOperators)
            if (at(op)) {
                length = op.size();
                break;
            }
        i_ += length;
        emit(std::string(s_.substr(begin, length)), begin, line_);
    }

    std::string_view s_;
    std::size_t i_ = 0;
    int line_ = 1;
    std::vector<Token> out_;
};

}  // namespace

std::vector<Token> cuda_tokens(std::string_view source) { return Lexer(source).run(); }

}  // namespace hpclab
