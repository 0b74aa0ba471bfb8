// The size parameters of one call (n; width and height; blocks and threads).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace hpclab {

using Params = std::map<std::string, std::int64_t>;

// "n=1000" or "width=640 height=480": how sizes read everywhere.
std::string format_params(const Params& params);

}  // namespace hpclab
