#include "run/call_driver.h"

#include "course/random.h"
#include "run/run_request.h"
#include "util/timeline.h"

#include <pthread.h>
#include <sched.h>

#include <chrono>

namespace hpclab {

namespace {

using Clock = std::chrono::steady_clock;

void pause_cpu()
{
#if defined(__x86_64__)
    __builtin_ia32_pause();
#endif
}

void pin_to(int cpu)
{
    if (cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void)pthread_setaffinity_np(pthread_self(), sizeof set, &set);  // a hint, as leave_timing_cpus
}

}  // namespace

CallDriver::CallDriver(wire::Handshake& hs, std::uint32_t handshakes, int cpu)
    : hs_(hs), handshakes_(handshakes), cpu_(cpu), thread_([this] { drive(); })
{
}

CallDriver::~CallDriver() { stop(); }

void CallDriver::stop()
{
    stop_ = true;
    if (thread_.joinable()) thread_.join();
}

// A call's end is waited for by spinning (the done is seen within a
// microsecond), yielding the CPU between looks after the first 2 ms (a long
// call must not starve the program's own threads on the timing pair). The
// start of a call is not timed: waited for with short sleeps. Stopped (the
// program has ended), it looks once more: a program may say its last done
// and end between two looks of a thread the busy host ran late, and that
// call was then lost (once in CI, one of a stand-in's five calls); the
// counter can no longer change, and the call's time only grows by the wait.
bool CallDriver::wait_for(const std::uint32_t& counter, std::uint32_t value, bool timed)
{
    const auto spin_until = Clock::now() + std::chrono::milliseconds(2);
    for (long looks = 0; wire::load_acquire(counter) != value; ++looks) {
        if (stop_) return wire::load_acquire(counter) == value;
        if (!timed) std::this_thread::sleep_for(std::chrono::microseconds(20));
        else if ((looks & 255) == 0 && Clock::now() > spin_until) sched_yield();
        else pause_cpu();
    }
    return true;
}

void CallDriver::drive()
{
    pin_to(cpu_);
    for (std::uint32_t j = 0; j < handshakes_; ++j) {
        if (!wait_for(hs_.ready, j + 1, false)) return;
        if (j > 0) calls_.between_calls_s += timeline_clock() - calls_.last_done_s;
        const std::uint64_t seed = fresh_seed();  // before the clock: it asks the kernel
        // The clock starts before the seed is there to be read.
        const auto t0 = Clock::now();
        if (j == 0) calls_.first_go_s = timeline_clock();
        hs_.seed[j] = seed;
        wire::store_release(hs_.go, j + 1);
        if (!wait_for(hs_.done, j + 1, true)) return;
        const auto t1 = Clock::now();
        calls_.last_done_s = timeline_clock();
        const std::uint64_t commitment = hs_.commitment[j];
        calls_.parent_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        calls_.seeds.push_back(seed);
        calls_.commitments.push_back(commitment);
    }
}

}  // namespace hpclab
