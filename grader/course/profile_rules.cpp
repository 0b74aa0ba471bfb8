#include "course/profile_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hpclab {

const ProfileMeasure* find_profile_measure(std::string_view name)
{
    for (const ProfileMeasure& m : kProfileMeasures)
        if (m.name == name) return &m;
    return nullptr;
}

bool ProfileValues::knows(std::string_view measure) const
{
    const std::string key(measure);
    return numbers.count(key) || names.count(key);
}

std::string ProfileValues::shown(std::string_view measure) const
{
    const std::string key(measure);
    if (const auto n = names.find(key); n != names.end()) return n->second;
    const auto v = numbers.find(key);
    if (v == numbers.end()) return "unknown";
    const double x = v->second;
    if (x != 0 && std::fabs(x) < 10) return fmt::format("{:.2g}", x);
    return fmt::format("{:.0f}", x);
}

bool ProfileRule::holds(const ProfileValues& v) const
{
    if (op == '=') {
        const auto n = v.names.find(measure);
        return n != v.names.end() && n->second == name;
    }
    const auto x = v.numbers.find(measure);
    if (x == v.numbers.end()) return false;
    return op == '<' ? x->second < number : x->second > number;
}

namespace {

// Every {name} of `say` is a measure.
std::optional<std::string> unknown_placeholder(const std::string& say)
{
    for (std::size_t open = say.find('{'); open != std::string::npos; open = say.find('{', open + 1)) {
        const std::size_t close = say.find('}', open);
        if (close == std::string::npos) return fmt::format("\"say\" opens a {{ at {} that no }} closes", open);
        const std::string name = say.substr(open + 1, close - open - 1);
        if (!find_profile_measure(name)) return fmt::format("\"say\" names {{{}}}, which is no measure", name);
    }
    return std::nullopt;
}

std::string measure_names()
{
    std::string out;
    for (const ProfileMeasure& m : kProfileMeasures) out += (out.empty() ? "" : ", ") + std::string(m.name);
    return out;
}

}  // namespace

std::optional<std::string> parse_profile_rule(const std::string& when, const std::string& say, ProfileRule& out)
{
    std::istringstream in(when);
    std::string measure, op, value, rest;
    if (!(in >> measure >> op >> value) || (in >> rest))
        return fmt::format("\"when\" is \"{}\": it must be <measure> <op> <value>, such as \"lanes_per_warp < 8\"", when);
    const ProfileMeasure* m = find_profile_measure(measure);
    if (!m) return fmt::format("\"when\" names {}, which is no measure (the measures: {})", measure, measure_names());
    out = ProfileRule {.measure = measure, .say = say};
    if (m->categorical) {
        if (op != "==") return fmt::format("{} is a name: compare it with ==", measure);
        out.op = '=';
        out.name = value;
    } else {
        if (op != "<" && op != ">") return fmt::format("{} is a number: compare it with < or >", measure);
        out.op = op[0];
        std::size_t used = 0;
        try {
            out.number = std::stod(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != value.size()) return fmt::format("\"when\" compares {} with {}, which is no number", measure, value);
    }
    if (say.empty()) return std::string("\"say\" is empty");
    return unknown_placeholder(say);
}

std::optional<ProfileSentence> profile_sentence(const std::vector<ProfileRule>& rules, const ProfileValues& v)
{
    const auto rule = std::find_if(rules.begin(), rules.end(), [&](const ProfileRule& r) { return r.holds(v); });
    if (rule == rules.end()) return std::nullopt;
    std::string out = rule->say;
    for (const ProfileMeasure& m : kProfileMeasures) {
        const std::string key = "{" + std::string(m.name) + "}";
        const std::string shown = v.shown(m.name);
        for (std::size_t at = out.find(key); at != std::string::npos; at = out.find(key, at + shown.size()))
            out.replace(at, key.size(), shown);
    }
    return ProfileSentence {rule->measure, out};
}

}  // namespace hpclab
