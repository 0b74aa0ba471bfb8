// GpuTurns: a timed phase has the GPU alone, correctness runs share it, and
// where the GPU's time went (alone, shared, no turn) adds up, turn by turn.
#include "gpu/gpu_turns.h"

#include <doctest/doctest.h>

#include <atomic>
#include <optional>
#include <chrono>
#include <thread>

using namespace hpclab;
using namespace std::chrono_literals;

TEST_CASE("gpu turns: the split counts each state's time, and a waiting alone turn holds back new shared ones")
{
    GpuTurns turns;
    {
        const auto shared = GpuTurns::shared(&turns);
        std::this_thread::sleep_for(30ms);
    }
    {
        const auto alone = GpuTurns::alone(&turns);
        std::this_thread::sleep_for(30ms);
    }
    std::this_thread::sleep_for(30ms);  // no turn
    const GpuTurns::Split s = turns.split();
    CHECK(s.alone_turns == 1);
    CHECK(s.shared_s >= 0.03);
    CHECK(s.alone_s >= 0.03);
    CHECK(s.free_s >= 0.03);

    // While a shared turn is held, an alone turn waits; a shared turn asked
    // for after it waits behind it (no starvation of timing).
    std::atomic<int> order {0};
    int alone_at = 0, late_shared_at = 0;
    std::optional<GpuTurns::Turn> first(std::in_place, &turns, false);
    std::thread timed([&] {
        const auto alone = GpuTurns::alone(&turns);
        alone_at = ++order;
    });
    std::this_thread::sleep_for(20ms);  // the alone turn is waiting now
    std::thread late([&] {
        const auto shared = GpuTurns::shared(&turns);
        late_shared_at = ++order;
    });
    std::this_thread::sleep_for(20ms);
    CHECK(order == 0);  // neither got in while the first shared turn is held
    first.reset();
    timed.join();
    late.join();
    CHECK(alone_at == 1);
    CHECK(late_shared_at == 2);
}
