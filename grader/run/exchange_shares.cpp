#include "run/exchange_shares.h"

#include <fmt/format.h>

namespace hpclab {

namespace {

// Where each exchange of a program's output starts: its line
// "<prefix>exchange-<e>@@" in the tagged lines and in stdout. Fewer than
// the exchanges when the program ended before the others began.
struct ExchangeStarts {
    std::vector<std::size_t> tagged, out;
    bool in_order = true;  // false: a line out of turn (not the harness's)
};

ExchangeStarts exchange_starts(const ProcessResult& process, std::uint64_t marker, std::size_t n)
{
    const std::string prefix = wire::tag_prefix(marker) + "exchange-";
    ExchangeStarts at;
    std::size_t out_pos = 0;
    for (std::size_t i = 0; i < process.tagged.size(); ++i) {
        const std::string& text = process.tagged[i].text;
        if (text.rfind(prefix, 0) != 0) continue;
        const std::string expected = fmt::format("{}{}@@", prefix, at.tagged.size());
        const std::size_t in_out = process.out.find("\n" + expected + "\n", out_pos);
        if (text != expected || at.tagged.size() >= n || in_out == std::string::npos) {
            at.in_order = false;
            break;
        }
        at.tagged.push_back(i);
        at.out.push_back(in_out);
        out_pos = in_out + expected.size() + 1;
    }
    return at;
}

}  // namespace

std::vector<std::optional<ProcessResult>> shares_of_exchanges(const ProcessResult& process, std::uint64_t marker,
                                                             const std::vector<const wire::Result*>& results)
{
    const std::size_t n = results.size();
    std::vector<std::optional<ProcessResult>> shares(n);
    if (n == 0) return shares;
    const ExchangeStarts at = exchange_starts(process, marker, n);
    if (!at.in_order || at.tagged.empty() || process.out_truncated) return shares;
    const std::size_t last = at.tagged.size() - 1;  // the exchange under way as the program ended
    const bool clean = process.exited() && process.exit_code == 0 && process.limit_message.empty();
    const bool stopped = process.timed_out || process.cancelled;
    for (std::size_t e = 0; e < n; ++e) {
        const bool finished =
            e <= last && results[e]->stage == wire::Stage::finished && results[e]->magic == wire::kMagic;
        const bool moved_on = e < last || clean;
        if (!(finished && moved_on) && !(stopped && e >= last)) continue;
        ProcessResult share = process;
        share.out = e > last ? std::string()
                             : process.out.substr(at.out[e], e < last ? at.out[e + 1] - at.out[e] : std::string::npos);
        share.tagged.clear();
        for (std::size_t i = e > last ? process.tagged.size() : at.tagged[e];
             i < (e < last ? at.tagged[e + 1] : process.tagged.size()); ++i)
            share.tagged.push_back(process.tagged[i]);
        if (finished && moved_on) {  // as if it had run alone and exited
            share.exit_code = 0;
            share.signal = 0;
            share.timed_out = share.cancelled = share.file_size_limit = share.unkillable = false;
            share.limit_message.clear();
        } else if (e > last) {  // never began: stopped for the exchange before it
            share.timed_out = false;
            share.cancelled = true;
        }
        shares[e] = std::move(share);
    }
    return shares;
}


}  // namespace hpclab
