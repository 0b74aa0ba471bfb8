// A program by name, as a shell finds it: the first folder of $PATH that has it.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace hpclab {

std::optional<std::filesystem::path> find_on_path(std::string_view name);

}  // namespace hpclab
