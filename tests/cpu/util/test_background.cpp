// Work off the caller's path (util/background.h): it runs on another
// thread, in the order given, and what it holds is let go there.
#include "util/background.h"

#include <doctest/doctest.h>

#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

using namespace hpclab;

TEST_CASE("background: work runs on another thread, in the order given, and lets go of what it holds there")
{
    const std::thread::id caller = std::this_thread::get_id();
    std::vector<int> order;  // written by the background thread alone
    std::promise<std::thread::id> ran_on;
    auto held = std::make_shared<int>(7);
    std::weak_ptr<int> watch = held;
    run_in_background([&order] { order.push_back(1); });
    run_in_background([&order, held = std::move(held)] { order.push_back(*held); });
    run_in_background([&order, &ran_on] {
        order.push_back(3);
        ran_on.set_value(std::this_thread::get_id());
    });
    auto done = ran_on.get_future();
    REQUIRE(done.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
    CHECK(done.get() != caller);
    CHECK(order == std::vector<int> {1, 7, 3});
    CHECK(watch.expired());  // the second piece of work's capture ended with it, before the third ran
}
