#include "course/profile_rules.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <regex>
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

std::optional<std::string> parse_answer_asked(const std::string& key, AnswerAsked& out)
{
    const auto dot = key.find('.');
    if (dot == std::string::npos || dot == 0) return "\"" + key + "\" is not <task>.<measure>";
    out.task = key.substr(0, dot);
    out.measure = key.substr(dot + 1);
    const ProfileMeasure* m = find_profile_measure(out.measure);
    if (!m) return "\"" + out.measure + "\" is not a measure of the profiler (course/profile_rules.h)";
    if (m->categorical) return "\"" + out.measure + "\" is a name, not a number to answer";
    return std::nullopt;
}

std::map<std::string, std::string> answers_in(std::string_view source)
{
    // A line's "answer", its key, '=', and the rest of the line.
    static const std::regex line(R"((?:^|\n)[ \t*/]*answer[ \t]+([A-Za-z0-9_]+\.[A-Za-z0-9_]+)[ \t]*=([^\n]*))");
    std::map<std::string, std::string> out;
    const std::string text(source);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it) {
        std::string value = (*it)[2].str();
        const auto b = value.find_first_not_of(" \t\r");
        const auto e = value.find_last_not_of(" \t\r");
        value = b == std::string::npos ? "" : value.substr(b, e - b + 1);
        out.emplace((*it)[1].str(), value);
    }
    return out;
}

std::optional<std::string> answer_problem(const AnswerAsked& q, const std::string& given, double measured)
{
    const std::string where = fmt::format("answer {} = <number>", q.key());
    if (given.empty())
        return fmt::format("no answer to {}: write `{}` in your file's ANSWERS block, the number hpclab check "
                           "--profile shows for the program as given",
                           q.key(), where);
    double value = 0;
    std::size_t used = 0;
    try {
        value = std::stod(given, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != given.size() || !std::isfinite(value))
        return fmt::format("your answer to {} is not a number: `{}`", q.key(), given);
    if (std::abs(value - measured) <= kAnswerWithin * std::abs(measured)) return std::nullopt;
    return fmt::format("your answer to {} ({}) is not within a quarter of what hpclab measured on the program as "
                       "given: run hpclab check --profile on the file as it was handed out and read {} there",
                       q.key(), given, q.measure);
}

}  // namespace hpclab
