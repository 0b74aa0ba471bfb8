// hello's spec: every thread of a launch of `blocks` blocks of `threads`
// threads prints one line "Hello from block B, thread T", and the host waits
// for the kernel before hello() returns. There are no buffers: the check
// reads what the program printed.
#include "course/spec_kit.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>
#include <set>

namespace {

using namespace hpclab;

struct Greeting {
    long long block = 0, thread = 0;
};

// What one stretch of the program's output says.
struct Scan {
    std::vector<Greeting> greetings;  // lines in the exact format, in order
    std::string first_near_miss;      // a line that looks meant as a greeting but is not in the format
};

constexpr std::string_view kFormat = "Hello from block %d, thread %d";

bool take(std::string_view& s, std::string_view prefix)
{
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    return true;
}

bool take_int(std::string_view& s, long long& value)
{
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || end == s.data()) return false;
    s.remove_prefix(static_cast<std::size_t>(end - s.data()));
    return true;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// "Hello from block B, thread T" and nothing else but blanks around it.
std::optional<Greeting> parse_greeting(std::string_view line)
{
    std::string_view s = trim(line);
    Greeting g;
    if (take(s, "Hello from block ") && take_int(s, g.block) && take(s, ", thread ") && take_int(s, g.thread) &&
        s.empty())
        return g;
    return std::nullopt;
}

bool starts_with_nocase(std::string_view s, std::string_view prefix)
{
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
    return true;
}

Scan scan(std::string_view text)
{
    Scan out;
    while (!text.empty()) {
        const std::size_t eol = text.find('\n');
        const std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view {} : text.substr(eol + 1);
        if (const auto g = parse_greeting(line)) {
            out.greetings.push_back(*g);
        } else if (out.first_near_miss.empty()) {
            const std::string_view t = trim(line);
            if (starts_with_nocase(t, "hello from block") || starts_with_nocase(t, "hello from thread"))
                out.first_near_miss = std::string(t.substr(0, 120));
        }
    }
    return out;
}

// Past this many lines, what a program prints may not all reach the check:
// device printf keeps 1 MB of lines and hpclab 1 MiB of the program's output.
constexpr long long kManyLines = 8192;

class HelloTask final : public TaskSpec {
public:
    std::vector<BufferDecl> buffers(const Params&) const override { return {}; }
    void generate(const Params&, std::uint64_t, CallBuffers&) const override {}

    CheckResult check(const CheckInput& in) const override
    {
        const long long blocks = in.params.at("blocks");
        const long long threads = in.params.at("threads");
        const auto total = static_cast<std::uint64_t>(blocks * threads);
        auto pair_name = [](const Greeting& g) { return fmt::format("block {}, thread {}", g.block, g.thread); };
        auto inside = [&](const Greeting& g) {
            return g.block >= 0 && g.block < blocks && g.thread >= 0 && g.thread < threads;
        };

        CheckResult r;
        r.checked = total;
        const Scan now = scan(in.printed);
        std::vector<std::uint32_t> count(total, 0);
        std::optional<Greeting> outside, twice;
        std::uint64_t n_outside = 0, n_twice = 0;
        for (const Greeting& g : now.greetings) {
            if (!inside(g)) {
                ++n_outside;
                if (!outside) outside = g;
                continue;
            }
            if (++count[static_cast<std::uint64_t>(g.block * threads + g.thread)] == 2) {
                ++n_twice;
                if (!twice) twice = g;
            }
        }
        std::uint64_t n_missing = 0;
        std::optional<Greeting> missing;
        for (std::uint64_t i = 0; i < total; ++i)
            if (count[i] == 0) {
                ++n_missing;
                if (!missing) missing = Greeting {static_cast<long long>(i) / threads, static_cast<long long>(i) % threads};
            }
        r.wrong = n_outside + n_twice + n_missing;
        const std::string launch = fmt::format("{} block{} of {} thread{}", blocks, blocks == 1 ? "" : "s", threads,
                                               threads == 1 ? "" : "s");

        if (r.wrong == 0) {
            r.summary = fmt::format("all {} threads ({}) printed their line, each exactly once", total, launch);
            return r;
        }
        r.kind = CheckResult::Kind::wrong_output;
        if (outside) {
            r.summary = fmt::format("\"Hello from {}\" is not a thread of the launch, which has {}: blocks 0 to {}, "
                                    "threads 0 to {}",
                                    pair_name(*outside), launch, blocks - 1, threads - 1);
            r.details.push_back(fmt::format("{} line{} a thread outside the launch. The launch is "
                                            "kernel<<<nblocks, nthreads>>>: the number of blocks first, then the "
                                            "threads of each block",
                                            n_outside, n_outside == 1 ? " names" : "s name"));
        } else if (twice) {
            r.summary = fmt::format("{} printed {} lines: every thread must print exactly one", pair_name(*twice),
                                    count[static_cast<std::uint64_t>(twice->block * threads + twice->thread)]);
            r.details.push_back(fmt::format("{} thread{} printed more than once: is the kernel launched more than "
                                            "once, or does it print in a loop?",
                                            n_twice, n_twice == 1 ? "" : "s"));
        } else {
            // Lines missing before the return: did they come after it?
            std::set<std::pair<long long, long long>> late;
            for (const Greeting& g : scan(in.printed_late).greetings)
                if (inside(g)) late.emplace(g.block, g.thread);
            std::uint64_t n_late = 0;
            for (std::uint64_t i = 0; i < total; ++i)
                if (count[i] == 0 && late.count({static_cast<long long>(i) / threads, static_cast<long long>(i) % threads}))
                    ++n_late;
            if (n_late > 0) {
                r.summary = fmt::format("{} of {} lines came out only after hello() returned: the host did not wait "
                                        "for the kernel",
                                        n_late, total);
                r.details.push_back("a launch returns at once, while the kernel still runs; call "
                                    "cudaDeviceSynchronize() or cudaCheckError() after the launch, so that hello() "
                                    "returns only once the kernel has finished and its lines are printed");
            } else {
                r.summary = fmt::format("{} printed nothing: {} of {} lines are missing", pair_name(*missing),
                                        n_missing, total);
                r.details.push_back(fmt::format("expected one line \"{}\" from each thread of the launch ({}); "
                                                "found {} such line{}",
                                                kFormat, launch, total - n_missing,
                                                total - n_missing == 1 ? "" : "s"));
                if (!now.first_near_miss.empty())
                    r.details.push_back(fmt::format("this line is not in the expected format: \"{}\" (expected "
                                                    "\"{}\")",
                                                    now.first_near_miss, kFormat));
                if (blocks * threads > kManyLines)
                    r.details.push_back(fmt::format("with {} lines the output may not all reach the check (device "
                                                    "printf keeps 1 MB of lines, hpclab 1 MiB of output): the "
                                                    "graded sizes stay at {} lines or fewer",
                                                    total, kManyLines));
            }
        }
        if (n_missing > 0 && (outside || twice))
            r.details.push_back(fmt::format("{} of {} threads printed nothing", n_missing, total));
        return r;
    }
};

}  // namespace

HPCLAB_REGISTER_TASK("hello", "hello", HelloTask);
