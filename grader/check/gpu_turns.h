// Turns on one GPU for checks that share it: correctness runs share the GPU
// (several checks' at once), a timed phase has it alone. Fair: once a timed
// phase waits, no new shared turn starts before it, so timing never starves
// behind a stream of correctness runs (std::shared_mutex promises no order).
// It also keeps where the GPU's time went (alone, shared, no turn at all):
// the split a class's grading reports.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace hpclab {

class GpuTurns {
public:
    class Turn {
    public:
        Turn(GpuTurns* turns, bool alone);
        ~Turn();
        Turn(const Turn&) = delete;
        Turn& operator=(const Turn&) = delete;

    private:
        GpuTurns* turns_;
        bool alone_;
    };

    // No turns (a null GpuTurns*) is a GPU of one's own: every turn is free.
    static Turn shared(GpuTurns* turns) { return Turn(turns, false); }
    static Turn alone(GpuTurns* turns) { return Turn(turns, true); }

    // Wall seconds since this object was made, by what held the GPU.
    struct Split {
        double alone_s = 0;   // a timed phase (one check's timed calls)
        double shared_s = 0;  // one or more programs of correctness or sanitizer runs
        double free_s = 0;    // no turn: the checks were building, judging, waiting for programs to start
        int alone_turns = 0;
    };
    Split split();

private:
    using Clock = std::chrono::steady_clock;
    void account(Clock::time_point now);  // under mutex_: the time since the last change to its state

    std::mutex mutex_;
    std::condition_variable changed_;
    int sharing_ = 0;
    int waiting_alone_ = 0;
    bool alone_ = false;
    Split split_;
    Clock::time_point since_ = Clock::now();
};

}  // namespace hpclab
