#include "student/terminal_input.h"

#include "util/text.h"

#include <poll.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <thread>

namespace hpclab {

namespace {

// The terminal as it was, and as watch wants it: shared with the signal
// handlers, which may only use async-signal-safe calls (tcsetattr, sigaction).
termios g_saved {};
termios g_keys {};
volatile sig_atomic_t g_changed = 0;

constexpr int kEndingSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[3] {};
struct sigaction g_previous_tstp {};

extern "C" void put_back_and_end(int sig)
{
    if (g_changed) tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
    // The default action, once this handler returns: the program ends the way
    // it would have without us (the shell sees "killed by SIGINT").
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
    raise(sig);
}

extern "C" void put_back_and_stop(int)
{
    const int saved_errno = errno;
    if (g_changed) tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
    struct sigaction dfl {}, ours {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &ours);
    sigset_t tstp;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &tstp, nullptr);
    raise(SIGTSTP);  // stopped here until `fg`
    sigaction(SIGTSTP, &ours, nullptr);
    if (g_changed) tcsetattr(STDIN_FILENO, TCSANOW, &g_keys);
    errno = saved_errno;
}

}  // namespace

WatchRequest watch_request_of(std::string typed)
{
    const std::string w = trimmed_lower(typed);
    WatchRequest r;
    r.typed = std::move(typed);
    if (w == "h" || w == "hint") r.command = WatchCommand::hint;
    else if (w == "n" || w == "next") r.command = WatchCommand::next;
    else if (w == "p" || w == "prev" || w == "previous") r.command = WatchCommand::prev;
    else if (w == "r" || w == "check" || w == "recheck") r.command = WatchCommand::check;
    else if (w == "q" || w == "quit" || w == "exit") r.command = WatchCommand::quit;
    else if (w == "?" || w == "help") r.command = WatchCommand::help;
    return r;
}

TerminalInput::TerminalInput()
{
    if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
    g_keys = g_saved;
    // Keys as they are pressed, not echoed; output processing and the
    // signal keys (Ctrl-C, Ctrl-Z) stay as they were.
    g_keys.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
    g_keys.c_cc[VMIN] = 1;
    g_keys.c_cc[VTIME] = 0;

    struct sigaction end {};
    end.sa_handler = put_back_and_end;
    sigemptyset(&end.sa_mask);
    for (std::size_t i = 0; i < std::size(kEndingSignals); ++i) sigaction(kEndingSignals[i], &end, &g_previous[i]);
    struct sigaction stop {};
    stop.sa_handler = put_back_and_stop;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGTSTP, &stop, &g_previous_tstp);

    if (tcsetattr(STDIN_FILENO, TCSANOW, &g_keys) == 0) {
        g_changed = 1;
        raw_ = true;
    }
}

TerminalInput::~TerminalInput()
{
    if (!raw_) return;
    tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
    g_changed = 0;
    for (std::size_t i = 0; i < std::size(kEndingSignals); ++i) sigaction(kEndingSignals[i], &g_previous[i], nullptr);
    sigaction(SIGTSTP, &g_previous_tstp, nullptr);
}

std::vector<WatchRequest> TerminalInput::wait(std::chrono::milliseconds timeout)
{
    std::vector<WatchRequest> out;
    if (ended_) {
        std::this_thread::sleep_for(timeout);
        return out;
    }
    pollfd pfd {STDIN_FILENO, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
    if (ready <= 0) return out;  // nothing yet, or a signal
    char buf[4096];
    const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return out;
    if (n > 0) {
        if (raw_) parse_keys(buf, static_cast<std::size_t>(n), out);
        else parse_lines(buf, static_cast<std::size_t>(n), out);
        return out;
    }
    // The end of the input (or an error reading it): what was typed on the
    // last line still counts, then quit.
    ended_ = true;
    if (!raw_ && !trimmed_lower(partial_line_).empty()) out.push_back(watch_request_of(partial_line_));
    partial_line_.clear();
    WatchRequest quit;
    quit.command = WatchCommand::quit;
    quit.end_of_input = true;
    out.push_back(quit);
    return out;
}

void TerminalInput::parse_keys(const char* data, std::size_t n, std::vector<WatchRequest>& out)
{
    for (std::size_t i = 0; i < n; ++i) {
        const char c = data[i];
        if (c == 27) return;  // an escape sequence (arrow keys, ...): none of ours
        if (c == 4) {         // Ctrl-D: the end of input, in a terminal
            WatchRequest quit = watch_request_of("q");
            quit.end_of_input = true;
            out.push_back(quit);
            return;
        }
        if (c == '\n' || c == '\r' || c == ' ') continue;
        out.push_back(watch_request_of(std::string(1, c)));
    }
}

void TerminalInput::parse_lines(const char* data, std::size_t n, std::vector<WatchRequest>& out)
{
    for (std::size_t i = 0; i < n; ++i) {
        if (data[i] != '\n') {
            partial_line_.push_back(data[i]);
            continue;
        }
        if (!trimmed_lower(partial_line_).empty()) out.push_back(watch_request_of(partial_line_));
        partial_line_.clear();
    }
}

}  // namespace hpclab
