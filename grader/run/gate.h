// A start gate between hpclab and a lab program: the program gets ready
// (starts, opens the GPU, allocates, uploads its input sets), says so, and
// waits for "go" before its first call.
//
// A program started early (beside the correctness runs' own) may be told to
// wait before that too, at an open gate: until let_open() it neither opens
// the GPU nor makes its CUDA context (made one at a time across the
// machine: the correctness runs' comes first), but it has started, its
// sandbox made and its exchange mapped meanwhile.
//
// Why: a timed run's preparation takes far longer than its timed calls. With
// a gate, hpclab prepares the reference's and the student's timed runs while
// the correctness runs go on, then lets them run their calls one after the
// other, alone on the GPU. Closing the gate without "go" (the check failed,
// so no timing is needed) makes the program exit at once.
#pragma once

#include <atomic>
#include <future>
#include <mutex>
#include <string>
#include <sys/types.h>

namespace hpclab {

class Gate {
public:
    Gate();  // throws std::system_error when no pipe can be made
    ~Gate();
    Gate(const Gate&) = delete;
    Gate& operator=(const Gate&) = delete;

    // The program's side: the descriptors it inherits, and its arguments.
    int child_ready_fd() const { return ready_w_; }
    int child_go_fd() const { return go_r_; }
    int child_open_fd() const { return open_r_; }  // -1 without open_later()
    // "G,R": go to read, ready to write; "G,R,O" with open_later(): open to read.
    std::string argument() const;
    // Before the program starts: it waits to open its GPU until let_open()
    // (a byte on its open descriptor); the gate closed first, or hpclab
    // gone, it reads the end of the pipe and exits without blame.
    void open_later();  // throws std::system_error when no pipe can be made
    void let_open();
    // Before the program starts: it opens its GPU once `said` is ready, its
    // inputs made before (a timed program of a check: its inputs while the
    // file compiles, its CUDA context after the correctness runs'): run_task
    // starts it at once, open_later(), and lets it open then.
    void open_when(std::shared_future<void> said) { open_when_ = std::move(said); }
    const std::shared_future<void>& opens_when() const { return open_when_; }
    // Once the program started: the parent's copies of its ends go, so that
    // the program's exit reads as end of file here.
    void program_started();

    // Blocks until the program is ready (true), has ended or is not ready
    // within `timeout_s` (false; the caller then closes the gate). Several
    // threads may wait: one reads the answer, the others are given it.
    bool wait_ready(double timeout_s);
    void go();     // lets a ready program make its calls
    void close();  // no calls: the program exits (also when never ready)
    bool opened() const { return opened_; }  // go() was called
    // The caller wants the program's calls now (it times them): from here a
    // program that is never ready has failed its timed phase, where before
    // (the check still deciding) a closed gate ends it without blame.
    void want() { wanted_ = true; }
    bool wanted() const { return wanted_; }
    // The program ended before it said it was ready (a wait saw it go).
    bool ended_unready();
    // After go(): blocks until the program says its calls are over and its
    // outputs written back (true), ends, or `timeout_s` passes (false). A
    // claim of the program's: it lets hpclab start the next timed program
    // while this one ends (check/timing.cpp says when that is safe), or
    // waits for leave to end (harness_main.cpp says which).
    bool wait_finished(double timeout_s);
    // The program may end (its end gate, which go() left open, closes).
    void let_end();
    // close() was called: a program not started yet need not start at all.
    bool closed() const { return closed_; }
    // True until go() or close(), and again from its "finished" until
    // let_end(): the program's wall limit does not run while it waits for
    // hpclab (process.h's `held`; its linger limit after its calls).
    const std::atomic<bool>* held() const { return &held_; }
    // True once the gate closed before the program was wanted or let
    // through: the program is not needed (process.h's `dismissed`).
    const std::atomic<bool>* dismissed() const { return &dismissed_; }

private:
    int ready_r_ = -1, ready_w_ = -1, go_r_ = -1, go_w_ = -1, open_r_ = -1, open_w_ = -1;
    std::shared_future<void> open_when_;
    std::mutex opening_;  // open_w_: let_open() and close() come from different threads
    std::mutex waiting_;
    int ready_ = -1;  // -1 unknown, 0 ended, 1 ready (under waiting_)
    bool opened_ = false;
    std::atomic<bool> wanted_ {false};
    std::atomic<bool> held_ {true};
    std::atomic<bool> closed_ {false};
    std::atomic<bool> dismissed_ {false};
};

}  // namespace hpclab
