// Long lines of prose (hints), wrapped for a terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace hpclab::cli {

// `text` broken at spaces into lines of at most `width` columns, each line
// starting with `indent` and ending with '\n'. A word longer than a line
// (a long expression in a hint) stays whole on a line of its own.
std::string wrap(std::string_view text, std::size_t width, std::string_view indent = "");

}  // namespace hpclab::cli
