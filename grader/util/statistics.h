// Order statistics of a sample of times, one definition for every caller.
#pragma once

#include <vector>

namespace hpclab {

// The q-quantile (0..1) by linear interpolation between order statistics;
// 0 for an empty sample.
double quantile(std::vector<double> sample, double q);
inline double median(std::vector<double> sample) { return quantile(std::move(sample), 0.5); }

}  // namespace hpclab
