// A name or message as each destination may hold it: one function per
// destination, used by every writer. The names come from students' folders
// and files, so they may hold anything a file system allows: terminal
// escapes, line breaks, Markdown, invalid UTF-8. Each function keeps what
// is printable and shows the rest as a visible escape (\x1b, \n), so that
// nothing is dropped without a trace and nothing acts on the reader.
#pragma once

#include <string>
#include <string_view>

namespace hpclab {

// Valid UTF-8 with every control character (C0, DEL, C1, the bidirectional
// overrides) and every byte that is not UTF-8 as an escape: "\n", "\t",
// "\r", "\xNN" (a byte), "\u{NNNN}" (a code point). `keep_lines`: line
// breaks and tabs stay as they are (a message's body, not a name).
std::string escaped_text(std::string_view s, bool keep_lines = false);

// The offset of the first byte of `s` that is not UTF-8, or npos.
std::size_t first_non_utf8(std::string_view s);

// For the terminal (and stderr): escaped_text.
std::string for_terminal(std::string_view s);

// For Markdown prose and table cells: escaped_text, then every ASCII
// punctuation Markdown could read as markup (\ ` * _ [ ] < > | # ! ~ &)
// backslash-escaped, so that it shows as typed and cannot start a heading,
// a link, a table cell or a code span.
std::string for_markdown(std::string_view s);

// A fenced code block of `text` (its lines kept, control characters
// escaped), fenced with more backticks than any run inside it, so that the
// text cannot close it.
std::string markdown_code_block(std::string_view text);

// For a CSV field hpclab writes (not a roster's cell, which goes back as it
// came): escaped_text, and a text a spreadsheet would run as a formula (=, +,
// @, or - before a non-digit, first) prefixed with ' so that it stays text.
std::string for_csv(std::string_view s);

// For a JSON string: valid UTF-8 (each byte that is not, as "\xNN" text);
// JSON escapes the control characters itself.
std::string for_json(std::string_view s);

// For SVG (XML) text and attribute values (double-quoted, as hpclab writes
// them): escaped_text, with & < > " as entities.
std::string for_svg(std::string_view s);

// For a CMake quoted argument ("..."): \ " $ and line ends escaped.
std::string for_cmake(std::string_view s);

}  // namespace hpclab
