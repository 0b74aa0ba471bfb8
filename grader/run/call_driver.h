// The parent's clock of a timed run (wire::Handshake, kFlagParentClock).
//
// A thread of hpclab's, on one of the timing CPUs, drives the program's
// calls one at a time: it waits until the program has staged a call, picks
// a fresh seed (the call's inputs: none exist before this moment), starts
// its own clock and says go; it stops the clock the moment it reads the
// program's done, and takes the commitment to the outputs written before it.
// The time of a call is this clock's, from hpclab's own process: nothing the
// student's code prints, writes or measures enters it. (What it can still do
// from inside its process, and what bounds it: docs/how-hpclab-checks.md.)
#pragma once

#include "wire/exchange.h"

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace hpclab {

// What the parent saw of each handshake it drove to its end.
struct DrivenCalls {
    std::vector<double> parent_ms;             // from go to done, on the parent's clock
    std::vector<std::uint64_t> seeds;          // the seed sent with each go
    std::vector<std::uint64_t> commitments;    // read the moment done was seen
    // For the timeline (util/timeline.h): the first go and the last done
    // (timeline_clock() values), and the program's own time between its
    // calls (from a done to the next ready: its staging and write-back).
    double first_go_s = 0, last_done_s = 0, between_calls_s = 0;
};

class CallDriver {
public:
    // Drives `handshakes` calls of the exchange whose handshake block is
    // `hs`, from a thread on `cpu` (-1: any).
    CallDriver(wire::Handshake& hs, std::uint32_t handshakes, int cpu);
    ~CallDriver();  // stops and joins
    CallDriver(const CallDriver&) = delete;
    CallDriver& operator=(const CallDriver&) = delete;

    // The program has ended: the thread stops waiting and is joined.
    void stop();
    // After stop(): every handshake seen to its end, in order.
    const DrivenCalls& calls() const { return calls_; }

private:
    void drive();
    // Waits until `counter` reads `value` (true) or the driver is stopped.
    bool wait_for(const std::uint32_t& counter, std::uint32_t value, bool timed);

    wire::Handshake& hs_;
    std::uint32_t handshakes_;
    int cpu_;
    std::atomic<bool> stop_ {false};
    DrivenCalls calls_;
    std::thread thread_;
};

}  // namespace hpclab
