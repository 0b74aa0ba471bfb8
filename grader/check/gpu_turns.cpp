#include "check/gpu_turns.h"

namespace hpclab {

GpuTurns::Turn::Turn(GpuTurns* turns, bool alone) : turns_(turns), alone_(alone)
{
    if (!turns_) return;
    std::unique_lock lock(turns_->mutex_);
    if (alone_) {
        ++turns_->waiting_alone_;
        turns_->changed_.wait(lock, [&] { return !turns_->alone_ && turns_->sharing_ == 0; });
        --turns_->waiting_alone_;
        turns_->alone_ = true;
    } else {
        turns_->changed_.wait(lock, [&] { return !turns_->alone_ && turns_->waiting_alone_ == 0; });
        ++turns_->sharing_;
    }
}

GpuTurns::Turn::~Turn()
{
    if (!turns_) return;
    {
        std::lock_guard lock(turns_->mutex_);
        if (alone_) turns_->alone_ = false;
        else --turns_->sharing_;
    }
    turns_->changed_.notify_all();
}

}  // namespace hpclab
