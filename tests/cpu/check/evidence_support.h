// Helpers of the evidence tests: a CUPTI kernel record, and the kinds of a
// list of findings.
#pragma once

#include "check/check.h"

#include <array>
#include <cstring>
#include <vector>

namespace hpclab::test {

inline wire::KernelRecord kernel(const char* name, std::array<int, 3> grid, std::array<int, 3> block, int shared = 0)
{
    wire::KernelRecord k {};
    std::strncpy(k.name, name, sizeof k.name - 1);
    for (int i = 0; i < 3; ++i) {
        k.grid[i] = grid[static_cast<std::size_t>(i)];
        k.block[i] = block[static_cast<std::size_t>(i)];
    }
    k.static_shared = shared;
    k.duration_ns = 1000;
    return k;
}

inline std::vector<Verdict> kinds(const std::vector<Finding>& fs)
{
    std::vector<Verdict> v;
    for (const auto& f : fs) v.push_back(f.kind);
    return v;
}

}  // namespace hpclab::test
