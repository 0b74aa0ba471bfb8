#include "check/threshold_rule.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace hpclab {

namespace {

// Without a slow version, a new threshold sits this far below the course's
// lowest ratio: more than the margin, as nothing bounds it from below.
constexpr double kCourseOnlyMargin = 1.5;

ThresholdDecision refused(std::string why) { return {ThresholdDecision::Kind::refused, 0, std::move(why)}; }

bool clear_of(double threshold, double course_low, std::optional<double> slow_high)
{
    return course_low >= kThresholdMargin * threshold && (!slow_high || *slow_high * kThresholdMargin <= threshold);
}

// A threshold people can read (0.22, not 0.2234...), as long as rounding
// keeps it clear of both sides; else the exact one.
double readable(double value, double course_low, std::optional<double> slow_high)
{
    for (int digits = 2; digits <= 4; ++digits) {
        const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(value))));
        const double rounded = std::round(value * scale) / scale;
        if (clear_of(rounded, course_low, slow_high)) return rounded;
    }
    return value;
}

// Why the shipped threshold does not hold here, in numbers.
std::string why_not(double shipped, double course_low, std::optional<double> slow_high)
{
    if (course_low < kThresholdMargin * shipped)
        return fmt::format("lab.json's {:g} is not {:g}x below the course's lowest ratio {:.3g}", shipped,
                           kThresholdMargin, course_low);
    return fmt::format("lab.json's {:g} is not {:g}x above the slow versions' highest ratio {:.3g}", shipped,
                       kThresholdMargin, *slow_high);
}

}  // namespace

ThresholdDecision decide_threshold(double shipped, const std::vector<RatioMeasurement>& course,
                                   const std::vector<RatioMeasurement>& slow)
{
    if (course.empty()) return refused("no measurement of the course's version");
    for (const auto* set : {&course, &slow})
        for (const RatioMeasurement& m : *set)
            if (!m.usable())
                return refused(fmt::format("{}: {}", m.source, m.problem.empty() ? "no ratio" : m.problem));
    const auto ratio = [](const RatioMeasurement& a, const RatioMeasurement& b) { return *a.ratio < *b.ratio; };
    const double course_low = *std::min_element(course.begin(), course.end(), ratio)->ratio;
    std::optional<double> slow_high;
    if (!slow.empty()) slow_high = *std::max_element(slow.begin(), slow.end(), ratio)->ratio;
    if (clear_of(shipped, course_low, slow_high))
        return {ThresholdDecision::Kind::confirmed, shipped,
                fmt::format("the course's lowest ratio {:.3g}{} at least {:g}x clear of lab.json's {:g}", course_low,
                            slow_high ? fmt::format(" and the slow versions' highest {:.3g} are", *slow_high) : " is",
                            kThresholdMargin, shipped)};
    if (slow_high && course_low < kThresholdMargin * kThresholdMargin * *slow_high)
        return refused(fmt::format("too thin to call: the course's lowest ratio {:.3g} is only {:.2f}x the slow "
                                   "versions' highest {:.3g} (a threshold {:g}x from each needs {:.2f}x)",
                                   course_low, course_low / *slow_high, *slow_high, kThresholdMargin,
                                   kThresholdMargin * kThresholdMargin));
    const double proposed = slow_high ? std::sqrt(course_low * *slow_high) : course_low / kCourseOnlyMargin;
    return {ThresholdDecision::Kind::changed, readable(proposed, course_low, slow_high),
            why_not(shipped, course_low, slow_high) +
                (slow_high ? std::string("; the new one sits between them (their geometric mean)")
                           : fmt::format("; the new one is the course's lowest / {:g} (no slow version)",
                                         kCourseOnlyMargin))};
}

}  // namespace hpclab
