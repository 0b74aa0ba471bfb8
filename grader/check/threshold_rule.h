// Whether a task's speed threshold holds on this GPU, from ratios measured
// here (hpclab calibrate): the course's own version of the task must pass it
// with room to spare, and the slow versions a student might write must fail
// it with room to spare. A pure function: the measurements come in, the
// decision goes out.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace hpclab {

// How far a ratio must stay from the threshold, on either side: the spread
// of a check's ratio on one GPU is about 10 %, so 1.2 leaves it room.
inline constexpr double kThresholdMargin = 1.2;

// One task's speed ratio (baseline time / its time) in one check, or why
// there is none: the check failed, the task was not timed, or another
// process shared the GPU. A measurement with a problem does not count.
struct RatioMeasurement {
    std::string source;            // what was checked: "solutions/vecadd3/vecadd3.cu, check 2"
    std::optional<double> ratio;
    std::string problem;
    bool usable() const { return ratio && *ratio > 0 && problem.empty(); }
};

struct ThresholdDecision {
    enum class Kind { confirmed, changed, refused };
    Kind kind = Kind::refused;
    double min_speedup = 0;  // confirmed: the shipped one; changed: the new one; refused: 0
    std::string why;
};

// The shipped threshold is confirmed when the course's lowest ratio is at
// least kThresholdMargin above it and every slow version's highest at least
// kThresholdMargin below it. Otherwise a new one between them is proposed
// (their geometric mean; with no slow version the course's lowest / 1.5),
// unless a measurement is missing or not usable, or the gap between the two
// is under kThresholdMargin^2: then no threshold can be called, and it is
// refused with why.
ThresholdDecision decide_threshold(double shipped, const std::vector<RatioMeasurement>& course,
                                   const std::vector<RatioMeasurement>& slow);

}  // namespace hpclab
