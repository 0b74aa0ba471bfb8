#include "check/gpu_turns.h"

namespace hpclab {

void GpuTurns::account(Clock::time_point now)
{
    const double s = std::chrono::duration<double>(now - since_).count();
    (alone_ ? split_.alone_s : sharing_ > 0 ? split_.shared_s : split_.free_s) += s;
    since_ = now;
}

GpuTurns::Split GpuTurns::split()
{
    std::lock_guard lock(mutex_);
    account(Clock::now());
    return split_;
}

GpuTurns::Turn::Turn(GpuTurns* turns, bool alone) : turns_(turns), alone_(alone)
{
    if (!turns_) return;
    std::unique_lock lock(turns_->mutex_);
    if (alone_) {
        ++turns_->waiting_alone_;
        turns_->changed_.wait(lock, [&] { return !turns_->alone_ && turns_->sharing_ == 0; });
        --turns_->waiting_alone_;
        turns_->account(Clock::now());
        turns_->alone_ = true;
        ++turns_->split_.alone_turns;
    } else {
        turns_->changed_.wait(lock, [&] { return !turns_->alone_ && turns_->waiting_alone_ == 0; });
        turns_->account(Clock::now());
        ++turns_->sharing_;
    }
}

GpuTurns::Turn::~Turn()
{
    if (!turns_) return;
    {
        std::lock_guard lock(turns_->mutex_);
        turns_->account(Clock::now());
        if (alone_) turns_->alone_ = false;
        else --turns_->sharing_;
    }
    turns_->changed_.notify_all();
}

}  // namespace hpclab
