// What the student asks `hpclab watch` for: single keys from a terminal
// (no Enter needed), or words on lines from anything else (a pipe, a test).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace hpclab {

enum class WatchCommand { hint, next, prev, check, quit, help, unknown };

struct WatchRequest {
    WatchCommand command = WatchCommand::unknown;
    std::string typed;         // what was typed, for the message about an unknown one
    bool end_of_input = false;  // a quit because the input ended (a pipe, Ctrl-D)
};

// Standard input, read without blocking the watch. On a terminal, the
// terminal is put in a mode without line buffering or echo for as long as the
// object lives, and put back as it was by the destructor and by SIGINT,
// SIGTERM, SIGHUP (which then end the program as they would have) and SIGTSTP
// (Ctrl-Z: back as it was while stopped, without buffering again after fg).
class TerminalInput {
public:
    TerminalInput();
    ~TerminalInput();
    TerminalInput(const TerminalInput&) = delete;
    TerminalInput& operator=(const TerminalInput&) = delete;

    bool keys() const { return raw_; }  // single keys (a terminal), or words on lines
    // Waits at most `timeout` for input and returns what it asked for (often
    // nothing). The end of the input asks to quit.
    std::vector<WatchRequest> wait(std::chrono::milliseconds timeout);

private:
    void parse_keys(const char* data, std::size_t n, std::vector<WatchRequest>& out);
    void parse_lines(const char* data, std::size_t n, std::vector<WatchRequest>& out);

    bool raw_ = false;
    bool ended_ = false;
    std::string partial_line_;
};

// The command a word or a key names: "hint" or "h", "next" or "n", ...
WatchRequest watch_request_of(std::string typed);

}  // namespace hpclab
