#include "run/claims.h"

#include "run/run_request.h"
#include "util/statistics.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace hpclab {

namespace {

// A claimed time may be this much shorter than the parent's view before it
// is disbelieved: the parent reads the lines late by a pipe's latency and a
// scheduling delay, so only a claim under half of what it saw, less this,
// is one that no honest program makes. What it saw is the median of the
// timed calls: a delay reading an end line lengthens a call, one reading a
// begin line shortens it (a reader held off the CPU for a whole call reads
// its two lines together: 0 ms), and a lie shows in every call. On a busy
// host (a test suite at eight tests at once) the delays lengthened most
// calls of an honest kernel of a third of a millisecond to 1 ms, and
// shortened a call to a tenth of its time (the shortest call, used before,
// let a redefined clock_gettime through); on CI's two cores an honest call
// of microseconds was seen over 1 ms in most calls (the slack was 1 ms then:
// a false accusation, once in some thirty runs). Calls shorter than the
// slack cannot be told apart this way: the copy-bandwidth floor
// (`suspicious`) is their check, and on hpclab's clock the claim decides
// nothing anyway.
constexpr double kSlackMs = 10.0;

bool parse_line(const std::string& line, const std::string& prefix, bool& begin, std::uint32_t& k)
{
    if (line.rfind(prefix, 0) != 0) return false;
    std::string_view rest = std::string_view(line).substr(prefix.size());
    if (rest.rfind("begin-", 0) == 0) begin = true;
    else if (rest.rfind("end-", 0) == 0) begin = false;
    else return false;
    rest.remove_prefix(begin ? 6 : 4);
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), k);
    return ec == std::errc() && std::string_view(end, rest.data() + rest.size() - end) == "@@";
}

// Calls claimed done beyond the ones whose end the parent read.
std::optional<std::string> unseen_calls(const wire::Result& result, const SeenCalls& seen, const RunReport& report)
{
    const bool claims_all = report.status == RunStatus::completed;
    if (result.calls_done <= seen.ended && !(claims_all && seen.ended < report.calls.size())) return std::nullopt;
    return fmt::format("the program reports {} of {} calls done, and hpclab saw {} of them end (code that writes into "
                       "the harness's memory, or closes its standard output?)",
                       claims_all ? report.calls.size() : result.calls_done, report.calls.size(), seen.ended);
}

std::optional<std::string> untrue_trace(const RunRequest& req, const wire::Result& result, const RunReport& report)
{
    if (req.trace == RunRequest::Trace::none || !req.facts.traced || report.status != RunStatus::completed)
        return std::nullopt;
    for (std::size_t k = 0; k < report.calls.size(); ++k) {
        const CallReport& c = report.calls[k];
        if (!c.done || (req.trace == RunRequest::Trace::first_call && k > 0)) continue;
        if (result.trace_available != 1 || !c.trace.traced)
            return fmt::format("call {} has no CUPTI record, and the harness records every call (or CUPTI cannot "
                               "start on this machine: hpclab selftest tells)", k + 1);
        const std::uint32_t recorded = std::min<std::uint32_t>(c.trace.kernels, wire::kMaxKernelRecords);
        for (std::uint32_t i = 0; i < recorded && req.facts.kernels_known; ++i) {
            const wire::KernelRecord& rec = c.trace.kernel[i];
            const std::string name(rec.name, wire::name_length(rec.name, sizeof rec.name));
            if (!req.facts.defines_kernel(name))  // a cut name is still its start
                return fmt::format("the trace of call {} names kernel {}, which is not in the program hpclab built",
                                   k + 1, name);
        }
    }
    return std::nullopt;
}

// The timed calls' claimed times against the parent's view of them: the
// time between the call's two lines as read, in a run without a parent
// clock (hpclab run, selftest, bench), where the program's own times are
// the ones shown. On the parent's clock the claim decides nothing, and a
// busy host lengthens hpclab's view of an honest call without bound (eight
// checks of matmul's solution at once on an H200: 2.7 ms claimed, 17.7 ms
// seen): there only a claim below the copy floor accuses (check/timing.h
// finding_of_claimed_times).
std::optional<std::string> untrue_times(const RunRequest& req, const SeenCalls& seen, const RunReport& report)
{
    if (req.ncalls < 2 || !req.judge_outputs || report.status != RunStatus::completed || report.parent_clock)
        return std::nullopt;
    std::vector<double> claimed, observed;
    for (std::size_t k = 1; k < report.calls.size() && k < seen.observed_ms.size(); ++k) {
        claimed.push_back(std::min(report.calls[k].gpu_ms, report.calls[k].host_ms));
        observed.push_back(seen.observed_ms[k]);
    }
    if (claimed.empty()) return std::nullopt;
    const double claimed_ms = median(claimed), observed_ms = median(observed);
    if (claimed_ms >= (observed_ms - kSlackMs) / 2) return std::nullopt;
    return fmt::format("the program reports {:.3f} ms per call; hpclab saw {:.3f} ms between a call's start and its "
                       "end (the median of the calls)",
                       claimed_ms, observed_ms);
}

}  // namespace

SeenCalls seen_calls(const std::vector<TaggedLine>& lines, std::uint64_t marker, std::uint32_t ncalls)
{
    const std::string prefix = wire::tag_prefix(marker);
    SeenCalls seen;
    double begun_at = -1;
    for (const TaggedLine& line : lines) {
        bool begin = false;
        std::uint32_t k = 0;
        if (!parse_line(line.text, prefix, begin, k)) continue;
        const bool in_turn = k == seen.ended && k < ncalls && (begin ? begun_at < 0 : begun_at >= 0);
        if (!in_turn) {
            seen.out_of_order = true;
            break;
        }
        if (begin) {
            begun_at = line.at_s;
        } else {
            seen.observed_ms.push_back((line.at_s - begun_at) * 1e3);
            ++seen.ended;
            begun_at = -1;
        }
    }
    return seen;
}

std::string without_call_lines(const std::string& out, std::uint64_t marker)
{
    const std::string start = "\n" + wire::tag_prefix(marker);
    std::string kept;
    std::size_t pos = 0;
    for (std::size_t hit; (hit = out.find(start, pos)) != std::string::npos;) {
        const std::size_t line_end = out.find('\n', hit + 1);
        kept.append(out, pos, hit - pos);
        pos = line_end == std::string::npos ? out.size() : line_end + 1;
    }
    kept.append(out, pos, std::string::npos);
    return kept;
}

std::optional<std::string> contradicted_claim(const RunRequest& req, const wire::Result& result,
                                              const SeenCalls& seen, const RunReport& report)
{
    if (report.status == RunStatus::cancelled || report.status == RunStatus::could_not_start) return std::nullopt;
    if (seen.out_of_order)
        return std::string("the lines that mark each call's start and end came out of turn: they were not the "
                           "harness's");
    if (auto why = unseen_calls(result, seen, report)) return why;
    if (auto why = untrue_trace(req, result, report)) return why;
    return untrue_times(req, seen, report);
}

}  // namespace hpclab
