// A student's source as the compiler must see it. Editors on Windows save
// UTF-8 with a byte-order mark (BOM) and CRLF line ends; others save UTF-16.
// nvcc reads UTF-8 (or plain bytes) with any line ends, tabs and
// continuations, and a BOM only as the file's very first bytes: hpclab puts
// a #line directive before the text it compiles, so a BOM left in would sit
// on line 2 and be a syntax error. UTF-16 and UTF-32 it cannot read at all.
#pragma once

#include <string>
#include <string_view>

namespace hpclab {

struct CompilableSource {
    std::string text;      // the bytes to compile: the file's, less a UTF-8 BOM
    std::string refusal;   // why it cannot be compiled, naming the encoding; empty when it can
    bool ok() const { return refusal.empty(); }
};

// The file's encoding where nvcc cannot read it ("UTF-16 (little-endian)"),
// told by its BOM or, without one, by the zero bytes of ASCII text in UTF-16
// or UTF-32; empty for UTF-8, ASCII and 8-bit encodings (Latin-1 comments
// compile).
std::string unreadable_encoding(std::string_view bytes);

// `bytes` made ready for nvcc: a UTF-8 BOM dropped (line numbers unchanged),
// or refused with a message that names the encoding and how to save it as
// UTF-8. `name` is the file as the student knows it.
CompilableSource compilable_source(std::string bytes, std::string_view name);

}  // namespace hpclab
