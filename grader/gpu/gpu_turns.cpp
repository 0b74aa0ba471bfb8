#include "gpu/gpu_turns.h"

#include "util/timeline.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>

namespace hpclab {

namespace fs = std::filesystem;

namespace {

// The folder, made by whoever comes first for everyone (mode 01777, as
// /tmp: each user may add files, none remove another's). A folder of
// another user's that others cannot write to leaves them without the lock
// files: their turns hold in their process only.
bool make_lock_folder(const fs::path& dir)
{
    std::error_code ec;
    if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);  // $HPCLAB_GPU_TURNS_DIR's; /tmp is there
    if (mkdir(dir.c_str(), 01777) == 0) chmod(dir.c_str(), 01777);  // the umask took the others' w away
    struct stat st {};
    // The default folder must be a folder, not a link someone put there.
    const int got = dir == GpuTurns::kDefaultLockFolder ? lstat(dir.c_str(), &st) : stat(dir.c_str(), &st);
    return got == 0 && S_ISDIR(st.st_mode);
}

// A descriptor of its own of the lock file, made if it is not there (0666:
// other users open it too). Read-only is enough for flock. O_CLOEXEC: no
// program hpclab starts (the student's, sandboxed or not, the compiler)
// ever has it. The file is opened without O_CREAT first: where another user
// made it, fs.protected_regular refuses O_CREAT on it in a sticky folder.
int open_lock_file(const fs::path& path)
{
    constexpr int flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW;
    int fd = open(path.c_str(), flags);
    if (fd >= 0 || errno != ENOENT) return fd;
    fd = open(path.c_str(), flags | O_CREAT | O_EXCL, 0666);
    if (fd >= 0) {
        fchmod(fd, 0666);  // the umask took the others' w away
        return fd;
    }
    return errno == EEXIST ? open(path.c_str(), flags) : -1;  // another process made it meanwhile
}

// flock(fd, op) once it can be had and `may()` allows it, or false when
// `until` has passed. It asks without blocking, every few milliseconds,
// rather than in one blocking call: a blocking flock has no time limit,
// and the wait must have one.
bool lock_until(int fd, int op, std::chrono::steady_clock::time_point until, const std::function<bool()>& may = {})
{
    auto pause = std::chrono::milliseconds(1);
    for (;;) {
        if (!may || may()) {
            if (flock(fd, op | LOCK_NB) == 0) return true;
            if (errno != EWOULDBLOCK && errno != EINTR) return false;
        }
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(10));
    }
}

// Whether no alone turn waits: nobody holds the gate (alone turns hold it
// shared while they wait). Two shared turns asking at once may each see
// the other's test as a waiting alone turn: one waits a few ms more.
bool no_alone_turn_waits(int gate)
{
    if (flock(gate, LOCK_EX | LOCK_NB) != 0) return false;
    flock(gate, LOCK_UN);
    return true;
}

void let_go(int fd)
{
    // flock(LOCK_UN) first: close alone would keep the lock while a child
    // forked meanwhile, not yet at its exec, still holds a copy of the descriptor.
    flock(fd, LOCK_UN);
    close(fd);
}

}  // namespace

fs::path GpuTurns::lock_folder()
{
    const char* dir = std::getenv("HPCLAB_GPU_TURNS_DIR");
    return dir && *dir ? fs::path(dir) : fs::path(kDefaultLockFolder);
}

// When the folder or the files cannot be made or opened (a read-only /tmp,
// a folder of another user's that others cannot write to), the turns hold
// in this process only, and nothing is said: that is how hpclab worked
// before they held across processes. The checks are then as right as they
// always were; only other processes on the GPU may disturb their timing,
// which the timing sees (NVML's other processes) and says (timing.cpp).
GpuTurns::Counters::Counters(double wait_s)
{
    const fs::path dir = lock_folder();
    if (!make_lock_folder(dir)) return;
    fd_ = open_lock_file(dir / kCountersName);
    if (fd_ < 0) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                              std::chrono::duration<double>(wait_s));
    if (lock_until(fd_, LOCK_EX, until)) return;
    close(fd_);
    fd_ = -1;
}

GpuTurns::Counters::~Counters()
{
    if (fd_ >= 0) let_go(fd_);
}

GpuTurns::GpuTurns(const std::string& uuid, double wait_s) : wait_s_(wait_s)
{
    if (uuid.empty()) return;
    on_ = " on " + uuid.substr(0, 12);
    const fs::path dir = lock_folder();
    if (!make_lock_folder(dir)) return;
    const fs::path machine = dir / kLockName, gate = dir / (std::string(kLockName) + ".gate");
    for (const fs::path& p : {machine, gate}) {
        const int fd = open_lock_file(p);
        if (fd < 0) return;
        close(fd);
    }
    machine_lock_ = machine;
    gate_lock_ = gate;
}

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

// alone:  flock(gate, SH); flock(machine, EX); flock(gate, UN)
// shared: flock(machine, SH) at a moment when nobody holds the gate
// Waiting alone turns hold the gate, so no new shared turn of any process
// takes the machine's file before them, whether it asked before or after
// them: the shared turns already in end as their programs do, then the
// alone turns waiting go one after another before any shared turn. One
// wait for the shared programs to end (up to seconds: a sanitizer's
// programs) serves every timed phase that came during it; when alone turns
// passed through a gate that they held only while waiting for it (EX), a
// shared turn that got in between two of them made the second wait again,
// and every turn of every other check waited with it (the tests on an
// H200: 234 s of shared turns' waits in 234 s of wall time, 30 s of
// alone turns held). Each turn opens the files itself: flock locks belong
// to an open file description, so this process's turns are as independent
// of each other as of other processes' (their order here is the
// in-process one's, which comes first).
int GpuTurns::lock_across_processes(bool alone)
{
    if (machine_lock_.empty()) return -1;
    const int gate = open_lock_file(gate_lock_);
    if (gate < 0) return -1;
    const int machine = open_lock_file(machine_lock_);
    // Once a wait was over, the turns after it only try: a process that
    // never lets go must not cost every turn of this one the whole wait.
    const double wait_s = gave_up_ ? 0 : wait_s_;
    const auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait_s));
    const bool held = machine >= 0 && (alone ? lock_until(gate, LOCK_SH, until) && lock_until(machine, LOCK_EX, until)
                                             : lock_until(machine, LOCK_SH, until, [gate] { return no_alone_turn_waits(gate); }));
    let_go(gate);
    if (held) {
        gave_up_ = false;
        return machine;
    }
    if (machine < 0) return -1;
    close(machine);
    if (!gave_up_.exchange(true))
        std::fprintf(stderr, "%s",
                     fmt::format("hpclab: waited {:g} s for other processes' turns on the GPUs ({}): going on "
                                 "without them\n",
                                 wait_s_, machine_lock_.string())
                         .c_str());
    return -1;
}

GpuTurns::Turn::Turn(GpuTurns* turns, bool alone) : turns_(turns), alone_(alone)
{
    if (!turns_) return;
    const double asked_at = timeline_clock();
    {
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
    // Then other processes' turns, never with the mutex held: the turns of
    // this process that end meanwhile must be able to say so.
    lock_fd_ = turns_->lock_across_processes(alone_);
    // On the timeline: how long a turn waited for the GPU (a class's pace).
    granted_at_ = timeline_clock();
    if (granted_at_ - asked_at > 0.005)
        timeline_note(asked_at, fmt::format("GPU turn {}: waiting{}", alone_ ? "alone" : "shared", turns_->on_));
}

GpuTurns::Turn::~Turn()
{
    if (!turns_) return;
    // The lock file first: an alone turn of this process, let in by the
    // state below, must not find this turn's flock still held.
    if (lock_fd_ >= 0) let_go(lock_fd_);
    if (alone_) timeline_note(granted_at_, "GPU turn alone: held" + turns_->on_);
    {
        std::lock_guard lock(turns_->mutex_);
        turns_->account(Clock::now());
        if (alone_) turns_->alone_ = false;
        else --turns_->sharing_;
    }
    turns_->changed_.notify_all();
}

}  // namespace hpclab
