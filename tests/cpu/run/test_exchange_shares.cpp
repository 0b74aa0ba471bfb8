// One program's output split among the exchanges it ran: each its own part,
// and nothing to believe when the marks that split it are not the harness's.
#include "run/exchange_shares.h"

#include <doctest/doctest.h>

using namespace hpclab;

namespace {

constexpr std::uint64_t kMarker = 0xABCDEF;

// A program's output: for each exchange its mark, then `text`.
ProcessResult printed(const std::vector<std::pair<std::uint32_t, std::string>>& parts)
{
    ProcessResult p;
    p.started = true;
    p.exit_code = 0;
    for (const auto& [e, text] : parts) {
        const std::string mark = wire::tag_prefix(kMarker) + "exchange-" + std::to_string(e) + "@@";
        p.out += "\n" + mark + "\n" + text;
        p.tagged.push_back({mark, 0.1 * e});
    }
    return p;
}

std::vector<const wire::Result*> finished(std::vector<wire::Result>& results)
{
    std::vector<const wire::Result*> out;
    for (auto& r : results) {
        r.magic = wire::kMagic;
        r.stage = wire::Stage::finished;
        out.push_back(&r);
    }
    return out;
}

}  // namespace

TEST_CASE("exchange shares: each exchange gets what it printed, and a clean end")
{
    std::vector<wire::Result> results(3);
    const auto shares = shares_of_exchanges(printed({{0, "zero\n"}, {1, "one\n"}, {2, "two\n"}}), kMarker,
                                            finished(results));
    REQUIRE(shares.size() == 3);
    for (std::size_t e = 0; e < 3; ++e) REQUIRE(shares[e]);
    CHECK(shares[1]->out.find("one") != std::string::npos);
    CHECK(shares[1]->out.find("zero") == std::string::npos);
    CHECK(shares[1]->out.find("two") == std::string::npos);
    CHECK(shares[2]->tagged.size() == 1);
    CHECK(shares[2]->exit_code == 0);
}

TEST_CASE("exchange shares: marks out of turn (printed by the student's code) leave every exchange to run alone")
{
    std::vector<wire::Result> results(3);
    const auto shares =
        shares_of_exchanges(printed({{0, "a\n"}, {2, "forged\n"}, {1, "b\n"}}), kMarker, finished(results));
    for (const auto& s : shares) CHECK_FALSE(s);
}

TEST_CASE("exchange shares: a crash in the second exchange keeps the first, and leaves the rest to run alone")
{
    std::vector<wire::Result> results(3);
    const auto done = finished(results);
    results[1].stage = wire::Stage::in_call;
    results[2] = wire::Result {};
    ProcessResult p = printed({{0, "a\n"}, {1, "b\n"}});
    p.exit_code = -1;
    p.signal = 11;
    const auto shares = shares_of_exchanges(p, kMarker, done);
    REQUIRE(shares[0]);
    CHECK(shares[0]->signal == 0);  // as if it had run alone, and ended well
    CHECK_FALSE(shares[1]);
    CHECK_FALSE(shares[2]);
}

TEST_CASE("exchange shares: output cut at its limit tells nothing for sure")
{
    std::vector<wire::Result> results(2);
    ProcessResult p = printed({{0, "a\n"}, {1, "b\n"}});
    p.out_truncated = true;
    for (const auto& s : shares_of_exchanges(p, kMarker, finished(results))) CHECK_FALSE(s);
}
