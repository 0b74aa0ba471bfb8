#include "course/input_ends.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace hpclab {

namespace {

constexpr std::array kShapes = {InputEnds::ascending, InputEnds::descending, InputEnds::all_low,
                                InputEnds::all_high};

template <class T> void shape(std::span<T> values, InputEnds ends, double lo, double hi)
{
    switch (ends) {
    case InputEnds::none: return;
    case InputEnds::ascending: std::sort(values.begin(), values.end()); return;
    case InputEnds::descending: std::sort(values.begin(), values.end(), std::greater<T> {}); return;
    case InputEnds::all_low: std::fill(values.begin(), values.end(), static_cast<T>(lo)); return;
    case InputEnds::all_high: std::fill(values.begin(), values.end(), static_cast<T>(hi)); return;
    }
}

// 1000000, not 1e+06: a range's ends are mostly whole numbers.
std::string value_text(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<long long>(v));
    return fmt::format("{:g}", v);
}

}  // namespace

std::span<const InputEnds> every_input_end() { return kShapes; }

void shape_inputs(const std::vector<InputFill>& fills, InputEnds ends, CallBuffers& call)
{
    for (const InputFill& f : fills) {
        const auto at = std::find_if(call.entries().begin(), call.entries().end(),
                                     [&](const CallBuffers::Entry& e) { return e.decl.name == f.buffer; });
        if (at == call.entries().end() || at->decl.role != Role::input) continue;
        if (at->decl.type == ElemType::f32) shape(call.get<float>(f.buffer), ends, f.lo, f.hi);
        else shape(call.get<int>(f.buffer), ends, f.lo, f.hi);
    }
}

const char* input_ends_name(InputEnds ends)
{
    switch (ends) {
    case InputEnds::none: return "random";
    case InputEnds::ascending: return "sorted up";
    case InputEnds::descending: return "sorted down";
    case InputEnds::all_low: return "all at the bottom";
    case InputEnds::all_high: return "all at the top";
    }
    return "";
}

std::string describe_input_ends(const std::vector<InputFill>& fills, InputEnds ends)
{
    const auto values = [&](bool high) {
        std::vector<std::string> each;
        for (const InputFill& f : fills) each.push_back(f.buffer + " = " + value_text(high ? f.hi : f.lo));
        return fmt::format("{}", fmt::join(each, ", "));
    };
    switch (ends) {
    case InputEnds::none: return "";
    case InputEnds::ascending: return "every input sorted from its smallest value to its largest";
    case InputEnds::descending: return "every input sorted from its largest value to its smallest";
    case InputEnds::all_low: return "every element at the bottom of its range (" + values(false) + ")";
    case InputEnds::all_high: return "every element at the top of its range (" + values(true) + ")";
    }
    return "";
}

}  // namespace hpclab
