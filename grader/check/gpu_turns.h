// Turns on one GPU for checks that share it: correctness runs share the GPU
// (several checks' at once), a timed phase has it alone. Fair: once a timed
// phase waits, no new shared turn starts before it, so timing never starves
// behind a stream of correctness runs (std::shared_mutex promises no order).
#pragma once

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

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int sharing_ = 0;
    int waiting_alone_ = 0;
    bool alone_ = false;
};

}  // namespace hpclab
