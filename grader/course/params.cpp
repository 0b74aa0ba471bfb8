#include "course/params.h"

namespace hpclab {

std::string format_params(const Params& params)
{
    std::string out;
    for (const auto& [name, value] : params) {
        if (!out.empty()) out += ' ';
        out += name + '=' + std::to_string(value);
    }
    return out.empty() ? "-" : out;
}

}  // namespace hpclab
