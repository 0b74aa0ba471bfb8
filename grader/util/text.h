// Small text helpers, one definition each, for every folder.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hpclab {

std::string upper(std::string_view s);
// The text without leading or trailing white space.
std::string trimmed(std::string_view s);
// The text lowercased, without leading or trailing white space.
std::string trimmed_lower(std::string_view s);
// Every line of `text` prefixed with `pad`.
std::string indent(const std::string& text, const std::string& pad);
// The first `n` lines of `text` on one line, joined by " / ".
std::string first_lines(const std::string& text, std::size_t n);
// The non-empty parts of `s` between `sep`s.
std::vector<std::string> split(const std::string& s, char sep);

// `s` as one cell of a Markdown table: its '|' escaped, its lines joined.
std::string markdown_cell(std::string_view s);
// `text` with every `from` replaced by `to`.
std::string replace_all(std::string text, std::string_view from, std::string_view to);
// `text` broken at spaces into lines of at most `width` columns, each line
// starting with `indent` and ending with '\n'. A word longer than a line
// (a long expression in a hint) stays whole on a line of its own.
std::string wrap(std::string_view text, std::size_t width, std::string_view indent = "");
// `text` whole when it has at most `width` characters, else cut after its last
// whole word that fits, with "…" (a legend names a variant without a word cut
// in two).
std::string shortened(std::string_view text, std::size_t width);

// The candidate nearest to `word` by edit distance, when it is near enough
// to be a typo of it (at most 2 edits, fewer than the word's length): the
// "did you mean" of a message. Empty otherwise.
std::string closest(std::string_view word, const std::vector<std::string>& candidates);
// " Did you mean 'x'?" for the closest candidate, or nothing.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace hpclab
