#include "util/background.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace hpclab {

namespace {

// One thread, started on first use, joined when the process exits (after
// main, as this static ends): the queue's last pieces of work run then.
class Background {
public:
    void add(std::function<void()> work)
    {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(work));
            if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
        }
        wake_.notify_one();
    }
    ~Background()
    {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_one();
        if (thread_.joinable()) thread_.join();
    }

private:
    void serve()
    {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping, and nothing left
            std::function<void()> work = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            work();
            work = nullptr;  // what it held goes here, off the lock
            lock.lock();
        }
    }
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace

void run_in_background(std::function<void()> work)
{
    static Background background;
    background.add(std::move(work));
}

}  // namespace hpclab
