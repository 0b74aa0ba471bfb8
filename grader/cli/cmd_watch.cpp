// hpclab watch: checks the lab every time the student saves it, and takes
// keys for a hint or another lab meanwhile. The check itself is `hpclab
// check <lab>` in a child process: watch only shows what it printed and how
// it ended, so a check that fails, crashes or does not exist yet never stops
// the watch.
#include "commands.h"

#include "student/check_child.h"
#include "student/file_stamp.h"
#include "student/progress.h"
#include "student/progress_view.h"
#include "student/terminal_input.h"
#include "util/clock_text.h"

#include <fmt/format.h>

#include <ctime>
#include <optional>

namespace hpclab::cli {

namespace {

using namespace std::chrono_literals;

constexpr auto kLookEvery = 300ms;     // how often the file is looked at
constexpr auto kLookSettling = 100ms;  // ... while a change settles
constexpr auto kSettle = 200ms;        // unchanged this long: the save is complete

std::string clock_time() { return now_text("%H:%M:%S", Zone::local); }

std::string keys_text(bool single_keys)
{
    return single_keys ? "keys: h hint, n next lab, p previous lab, r check now, q quit"
                       : "commands, one per line: hint, next, prev, check, quit";
}

class Watch {
public:
    Watch(Context& ctx, std::size_t first, TerminalInput& input)
        : ctx_(ctx), labs_(ctx.catalog().labs()), index_(first), input_(input)
    {
    }

    int run()
    {
        start_lab(index_);
        while (!quit_) {
            for (const WatchRequest& r : input_.wait(saves_->settling() ? kLookSettling : kLookEvery)) {
                handle(r);
                if (quit_) return kPass;
            }
            if (saves_->saved(SaveDetector::Clock::now())) on_save();
        }
        return kPass;
    }

private:
    const LabInfo& lab() const { return labs_[index_]; }
    std::string file_shown() const { return relative_to_root(ctx_, lab().student_source()); }

    std::string keys() const { return keys_text(input_.keys()); }

    void start_lab(std::size_t i)
    {
        index_ = i;
        saves_.emplace(lab().student_source(), kSettle);
        fmt::print("\n--- Lab {} of {}: {} ({}) ---\n", index_ + 1, labs_.size(), lab().id, lab().title);
        check("on start");
    }

    // Runs the check, or says that the file is missing (a save that deleted it).
    void check(const std::string& why)
    {
        const FileStamp before = stamp_of(lab().student_source());
        saves_->handled(before);
        if (!before.exists) {
            fmt::print("{} is missing: watching for it to appear ('hpclab reset {}' restores the skeleton).\n",
                       file_shown(), lab().id);
            return;
        }
        fmt::print("\n=== hpclab check {}: {} ===\n", lab().id, why);
        const ChildStatus status = run_check_child(ctx_.catalog().root(), lab().id);
        fmt::print("=== hpclab check {}: {} ===\n", lab().id, describe(status));
        if (status.started && status.signal == 0 && status.exit_code == kPass)
            say_passed();
        else
            fmt::print("Watching {}: save it to check again ({}).\n", file_shown(), keys());
        std::fflush(stdout);
    }

    void say_passed()
    {
        if (index_ + 1 < labs_.size())
            fmt::print("{} passes! {} for the next lab, {}.\n", lab().id,
                       input_.keys() ? "Press n" : "Type next", labs_[index_ + 1].id);
        else
            fmt::print("{} passes, and it is the last lab of the course. Well done!\n", lab().id);
        const Progress p = Progress::load(ctx_.catalog().root());
        fmt::print("Progress: {}\n", progress_bar(ctx_.catalog(), p));
    }

    void on_save() { check(fmt::format("{} saved at {}", file_shown(), clock_time())); }

    void handle(const WatchRequest& r)
    {
        switch (r.command) {
        case WatchCommand::hint:
            fmt::print("\n");
            show_next_hint(ctx_, lab());
            break;
        case WatchCommand::next:
            if (index_ + 1 < labs_.size()) start_lab(index_ + 1);
            else fmt::print("{} is the last lab.\n", lab().id);
            break;
        case WatchCommand::prev:
            if (index_ > 0) start_lab(index_ - 1);
            else fmt::print("{} is the first lab.\n", lab().id);
            break;
        case WatchCommand::check: check("asked"); break;
        case WatchCommand::quit:
            if (r.end_of_input) fmt::print("End of input: the watch stops.\n");
            quit_ = true;
            break;
        case WatchCommand::help: fmt::print("The {}.\n", keys()); break;
        case WatchCommand::unknown:
            fmt::print("Unknown {} '{}': the {}.\n", input_.keys() ? "key" : "command", r.typed, keys());
            break;
        }
        std::fflush(stdout);
    }

    Context& ctx_;
    const std::vector<LabInfo>& labs_;
    std::size_t index_;
    TerminalInput& input_;
    std::optional<SaveDetector> saves_;
    bool quit_ = false;
};

// The lab to start at: the one named, else the first not solved yet.
std::size_t first_lab(Context& ctx, const std::string& lab_id)
{
    const auto& labs = ctx.catalog().labs();
    const LabInfo* lab = nullptr;
    if (!lab_id.empty()) {
        lab = &ctx.lab(lab_id);
    } else {
        lab = first_unsolved(ctx.catalog(), Progress::load(ctx.catalog().root()));
        if (!lab) {
            fmt::print("Every lab is solved; the watch starts at the first.\n");
            lab = &labs.front();
        }
    }
    return static_cast<std::size_t>(lab - labs.data());
}

}  // namespace

int cmd_watch(Context& ctx, const std::string& lab_id)
{
    if (ctx.catalog().labs().empty()) throw UsageError("there are no labs in " + ctx.catalog().root().string());
    const std::size_t first = first_lab(ctx, lab_id);
    TerminalInput input;  // the terminal is back as it was when this ends, however it ends
    fmt::print("hpclab watch: checks your lab every time you save it ({}).\n", keys_text(input.keys()));
    return Watch(ctx, first, input).run();
}

}  // namespace hpclab::cli
