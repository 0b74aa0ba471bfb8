// The lab program's main(): the child side of a run.
//
// hpclab links the student's compiled lab with this file and the lab's
// bind.cpp, then starts the program as
//
//     <lab program> --exchange-fd N [--exchange-fd M ...]
//
// where N is an open shared-memory file laid out as wire/exchange.h says
// (several: one run after the other, in this order).
// For each call slot the harness copies the inputs into buffers it owns
// (device or host memory, with guard zones on both sides), fills the outputs
// with poison, calls the student's entry point through the lab's binding,
// waits for the device, then writes back the outputs, a read-back of the
// inputs and what it saw (time, return value, guard damage, CUDA errors).
// It decides nothing: the verdict is the parent's.
//
// The steps are LabProgram's (lab_program.h); main() runs them in order.
#include "lab_program.h"
#include "trace.h"
#include "wire/exchange.h"

#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

namespace {

using namespace hpclab;

struct Arguments {
    std::vector<int> exchange_fds;      // one run per exchange, in this order
    int gate_go = -1, gate_ready = -1;  // --gate GO,READY: no gate when either is -1
    int gate_open = -1;                 // --gate GO,READY,OPEN: the GPU opened once told (gate.h)
    std::vector<int> cpus_after_calls;  // --cpus-after-calls 0,1,...: where the program ends (gate.h, finished)
};

std::vector<int> cpu_list(const char* text)
{
    std::vector<int> cpus;
    for (const char* p = text; *p;) {
        char* end = nullptr;
        const long cpu = std::strtol(p, &end, 10);
        if (end == p || cpu < 0 || cpu >= CPU_SETSIZE) return {};
        cpus.push_back(static_cast<int>(cpu));
        p = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') return {};
    }
    return cpus;
}

Arguments read_arguments(int argc, char** argv)
{
    Arguments args;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--exchange-fd") == 0) args.exchange_fds.push_back(std::atoi(argv[i + 1]));
        if (std::strcmp(argv[i], "--gate") == 0 &&
            std::sscanf(argv[i + 1], "%d,%d,%d", &args.gate_go, &args.gate_ready, &args.gate_open) < 2)
            args.gate_go = args.gate_ready = args.gate_open = -1;
        if (std::strcmp(argv[i], "--cpus-after-calls") == 0) args.cpus_after_calls = cpu_list(argv[i + 1]);
    }
    return args;
}

// One byte from `fd`, or nothing (its end of file, or an error).
std::optional<char> read_byte(int fd)
{
    char byte = 0;
    ssize_t n;
    do n = read(fd, &byte, 1);
    while (n < 0 && errno == EINTR);
    if (n != 1) return std::nullopt;
    return byte;
}

// With a gate (hpclab's gate.h): say "ready", then wait for "go". No "go"
// (hpclab closed the gate: no calls are needed) ends the program here. Both
// pipes stay open: say_finished() writes into the ready pipe once more, and
// the go pipe's end of file is the leave to end (wait_for_leave).
void wait_at_gate(int go_fd, int ready_fd)
{
    if (go_fd < 0 || ready_fd < 0) return;
    const char ready = 'r';
    const bool told = write(ready_fd, &ready, 1) == 1;
    if (!told || !read_byte(go_fd)) std::_Exit(wire::kExitOk);
}

// With an open gate: the GPU is opened once hpclab says so (one byte); the
// end of the pipe (the gate closed: no timing needed, or hpclab gone) ends
// the program here, as a closed gate does.
void wait_to_open(int open_fd)
{
    if (open_fd < 0) return;
    const bool told = read_byte(open_fd).has_value();
    close(open_fd);
    if (!told) std::_Exit(wire::kExitOk);
}

// Until hpclab closes the go pipe (Gate::let_end), or dies.
void wait_for_leave(int go_fd)
{
    while (read_byte(go_fd)) {
    }
}

// A gated program's calls are over and its outputs written back: it leaves
// the timed CPUs for `cpus` (every thread of it: the CUDA driver's too),
// then says "finished" on the gate's ready pipe. hpclab lets the next timed
// program of its turn start then, while this one ends off its CPU (a
// program's end, the CUDA context's teardown, took 30..190 ms of an
// aos_soa check's alone turn on an H200: docs/results/exit-cost-h200.txt).
// A program holding host memory from the lab's own allocator
// (LabProgram::holds_lab_host_memory) then waits for leave to end: giving
// such memory back stalls the next program's copies, so the turn's
// programs of that kind end together after its last calls.
void say_finished(int ready_fd, const std::vector<int>& cpus)
{
    if (ready_fd < 0) return;
    if (!cpus.empty()) {
        cpu_set_t set;
        CPU_ZERO(&set);
        for (int c : cpus) CPU_SET(c, &set);
        if (DIR* tasks = opendir("/proc/self/task")) {
            while (const dirent* t = readdir(tasks))
                if (t->d_name[0] != '.') (void)sched_setaffinity(std::atoi(t->d_name), sizeof set, &set);
            closedir(tasks);
        }
        (void)sched_setaffinity(0, sizeof set, &set);  // this thread, whatever /proc shows
    }
    const char finished = 'f';
    (void)!write(ready_fd, &finished, 1);
    close(ready_fd);
}

// The machine's monotonic clock, as hpclab's, in milliseconds.
double steady_ms()
{
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double, std::milli>(clock::now().time_since_epoch()).count();
}

// HPCLAB_PROFILE: each exchange's steps and how long each took, one line
// on stderr per exchange (hpclab shows them when it profiles too).
class StepTimes {
public:
    void step(const char* name)
    {
        if (!on_) return;
        const double t = steady_ms();
        const int n = std::snprintf(text_ + used_, sizeof text_ - used_, " %s %.0f", name, t - last_);
        if (n > 0) used_ = std::min(sizeof text_ - 1, used_ + static_cast<std::size_t>(n));
        last_ = t;
    }
    void print(std::size_t exchange)
    {
        // The clock's own reading too (steady: the machine's monotonic clock,
        // as hpclab's): against the moment hpclab saw the process end, it
        // gives what the program's exit took.
        if (on_)
            std::fprintf(stderr, "hpclab profile: program: exchange %zu steps, ms:%s; done at %.0f\n", exchange, text_,
                         steady_ms());
        used_ = 0;
        text_[0] = '\0';
    }

private:
    bool on_ = std::getenv("HPCLAB_PROFILE") != nullptr;
    double last_ = steady_ms();
    char text_[512] = "";
    std::size_t used_ = 0;
};

// How the program ends once everything is written back: as programs do,
// with the student's atexit functions and destructors (a program may print
// or release there), then the runtime's teardown of the CUDA context.
// HPCLAB_PROFILE=teardown: that teardown (cudaDeviceReset) timed on its own;
// =_exit: no atexit functions at all (std::_Exit). Both only measure where a
// program's end goes (scripts/exit-cost.sh): a timed program's end is part
// of the turn that has the GPU alone.
[[noreturn]] void end_program()
{
    const char* env = std::getenv("HPCLAB_PROFILE");
    const std::string_view profile = env ? env : "";
    if (profile == "teardown") {
        const double t0 = steady_ms();
        cudaDeviceReset();
        std::fprintf(stderr, "hpclab profile: program: teardown %.0f ms; done at %.0f\n", steady_ms() - t0,
                     steady_ms());
    }
    if (profile == "_exit") {
        std::fflush(nullptr);
        std::_Exit(wire::kExitOk);
    }
    std::exit(wire::kExitOk);
}

}  // namespace

// The student's global objects are made before main, and what their
// constructors make is watched like a call's (the invariant releases): from
// here, which runs before them (a constructor of priority 101 comes before
// every one of default priority in the program: GNU ld sorts init_array's
// prioritized entries first), to main's first line. Only where the first
// exchange's job asks for a trace; glibc hands init_array's functions main's
// arguments.
__attribute__((constructor(101))) static void watch_before_main(int argc, char** argv, char**)
{
    const Arguments args = read_arguments(argc, argv);
    wire::Job job {};
    if (args.exchange_fds.empty() ||
        pread(args.exchange_fds.front(), &job, sizeof job, 0) != static_cast<ssize_t>(sizeof job) ||
        job.magic != wire::kMagic)
        return;
    if (wire::wants_trace(job.flags)) hpclab::trace::watch_before_main();
}

int main(int argc, char** argv)
{
    // What the start made and still holds, told to every exchange.
    const wire::ResourceLedger before_main = hpclab::trace::end_before_main();
    // Die with the process that started us (hpclab, or compute-sanitizer):
    // a kernel that never ends must not outlive its run and hold the GPU.
    // (In a sandbox the parent is the pid namespace's first process, pid 1:
    // no test of getppid() here. A parent gone before this line leaves the
    // gate's pipe closed, and the program ends there.)
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // Not readable through /proc by other processes of the same user (another
    // run's program): a speed baseline's exchange and memory stay its own.
    prctl(PR_SET_DUMPABLE, 0);

    const Arguments args = read_arguments(argc, argv);
    if (args.exchange_fds.empty()) {
        std::fprintf(stderr,
                     "This is a lab program built by hpclab; it runs the lab's graded functions for\n"
                     "hpclab and has nothing to do on its own. Run it with: hpclab run <lab>\n");
        return wire::kExitHarnessError;
    }
    // Device printf and the marker lines must reach the parent in the order
    // they happen: no stdio buffering.
    std::setvbuf(stdout, nullptr, _IONBF, 0);
    // Several exchanges: the runs of several sizes, one after the other in
    // this one process (a CUDA context costs a process about 0.2 s, made one
    // at a time across the machine). The parent judges each exchange alone
    // and runs again, each in a fresh process, any that did not finish.
    StepTimes steps;
    bool ends_after_turn = false;  // it waits for leave to end (say_finished)
    for (std::size_t e = 0; e < args.exchange_fds.size(); ++e) {
        const bool last = e + 1 == args.exchange_fds.size();
        harness::LabProgram program(args.exchange_fds[e]);
        program.mark_start(static_cast<std::uint32_t>(e));
        program.tell_before_main(before_main);
        program.start_profile();
        steps.step("map");
        // The driver too is loaded after the open gate: loaded before it, a
        // streams check was no quicker (docs/results/check-times-h200.txt).
        if (e == 0) wait_to_open(args.gate_open);
        steps.step("open");
        program.open_gpu();
        steps.step("gpu");
        program.mark_opened(static_cast<std::uint32_t>(e));
        program.find_task();
        program.allocate_buffers();
        steps.step("buffers");
        program.keep_input_sets();
        program.keep_output_history();
        program.make_poison();
        program.make_l2_flush();
        program.create_events();
        steps.step("sets+poison");
        program.start_trace();
        steps.step("trace");

        if (e == 0) wait_at_gate(args.gate_go, args.gate_ready);
        steps.step("gate");
        program.warm_up();
        program.run_calls();
        steps.step("calls");
        program.copy_back_history();
        program.finish();
        steps.step("back");
        // The last exchange's buffers go with the process, as they always did.
        if (!last) program.release();
        else ends_after_turn = program.holds_lab_host_memory();
        steps.step("release");
        steps.print(e);
    }
    say_finished(args.gate_ready, args.cpus_after_calls);
    if (args.gate_go >= 0) {
        if (ends_after_turn) wait_for_leave(args.gate_go);
        close(args.gate_go);
    }
    end_program();
}
