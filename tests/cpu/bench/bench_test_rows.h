// Rows as the bench writes them, for the tests of what becomes of them
// (the results file, the tables, the figures quoted in the docs).
#pragma once

#include "bench/row.h"

#include <string>
#include <utility>

namespace hpclab::test {

// A timed row of vecadd3 (task "add") or of matmul (any other task): 10
// timed calls, the median `ms`, the extremes 0.9 and 1.2 times it.
inline BenchRow timed_row(std::string task, std::string variant, std::string kind, Params params, double ms,
                          double bytes, double flops = 0)
{
    BenchRow r;
    r.lab = task == "add" ? "vecadd3" : "matmul";
    r.task = std::move(task);
    r.variant = std::move(variant);
    r.kind = std::move(kind);
    r.title = "the " + r.variant + ", with a comma";
    r.params = std::move(params);
    r.bytes = bytes;
    r.flops = flops;
    r.reps = 10;
    r.median_ms = ms;
    r.min_ms = ms * 0.9;
    r.max_ms = ms * 1.2;
    return r;
}

}  // namespace hpclab::test
