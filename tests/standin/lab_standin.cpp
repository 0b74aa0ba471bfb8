// A stand-in for a lab program, with no GPU: it speaks the exchange
// protocol (wire/exchange.h) as the harness does, and plays one trick
// against the parent, named by its first argument. The CPU tests run it as
// a run's wrapper ({lab_standin, <trick>}), so that its argv ends with the
// real program's (ignored) and "--exchange-fd N":
//
//   vecadd        c = a + b for every call, done honestly (int buffers a, b, c)
//   modify_input  vecadd, and the first input's first element changed
//   zero_outputs  every output written with zeros
//   leave_stream  vecadd, its record the launch vecadd1 asks for and a ledger of one stream left of two
//   read_back     vecadd, its record that launch and a copy back to the host of both inputs' bytes
//   held_from_start  vecadd, its record that launch, and a ledger of a device allocation its start made before main
//   top_end      vecadd, but c = a where a is 1000000 or more (the top of VectorAddSpec's range: a value
//                exactly at the end of the range handled as past it, as a histogram's bin past the last)
// and tricks against the parent's trust in what the exchange says:
//   skip_compute     every call marked done, with its lines, nothing written
//   claim_unseen     no call run and no line printed; the result says finished
//   claim_fast       vecadd, each call taking 40 ms, reported as 0.001 ms
//   forge_trace      vecadd, with a CUPTI record naming a kernel not in the program
//   unsealed         vecadd, after trying to shrink the exchange to nothing
// and, on the parent's clock (timed runs, kFlagParentClock: it makes each
// call's inputs from the seed sent with the go, as the harness does):
//   early_done       says done at once with no commitment, then computes
//   replay           returns the previous call's outputs (the first call's own)
//   sleepy           vecadd, 30 ms asleep in each call, reporting 0.001 ms
// and tricks against the sandbox (their effect goes to stderr):
//   read_path=<p>    vecadd, after printing "read ok" or "read refused" for file <p>
//   net_connect=<port> vecadd, after printing "connect ok" or "connect refused" (to 127.0.0.1:<port>)
//   orphan           vecadd, leaving a setsid() grandchild that sleeps 60 s (says "orphan left")
//   write_big        writes a file of 200 MiB into its folder, then vecadd
//   linger           vecadd, then does not end (sleeps 60 s after its last call)
//   open_slowly      vecadd, 1.5 s late to say its GPU is ready (a context made on a busy GPU)
//   reopen           says its GPU is ready over and over, and never ends
// and, for a program given several exchanges (one run after another):
//   crash, hang, exit   abort(), sleep forever, or exit(0), before any call
//   crash_late       abort() a second after the exchange starts
//   flood            prints 1.5 MiB (past any output limit a check sets), then vecadd
//   slow_cuda_exit   hpc.h's message of a failed CUDA call, then an exit that never ends
//   slow             vecadd, after sleeping 600 ms
//   print            vecadd, printing "printed in exchange <e>" in each call
//   <trick>@<e>      the trick in exchange e only, vecadd in the others
//   <first>,<rest>   the trick <first> in exchange 0, <rest> in the others
#include "wire/exchange.h"
#include "wire/reveal.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace hpclab;

namespace {

wire::Header* map_exchange(int fd, unsigned char*& file)
{
    struct stat st {};
    if (fstat(fd, &st) != 0) std::exit(wire::kExitHarnessError);
    void* map = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) std::exit(wire::kExitHarnessError);
    file = static_cast<unsigned char*>(map);
    return static_cast<wire::Header*>(map);
}

std::int32_t* buffer(const wire::Job& job, unsigned char* file, std::uint32_t k, const char* name)
{
    for (std::uint32_t b = 0; b < job.nbuffers; ++b)
        if (std::strcmp(job.buffers[b].name, name) == 0)
            return reinterpret_cast<std::int32_t*>(file + wire::buffer_offset(job, k, job.buffers[b]));
    return nullptr;
}

void sleep_ms(long ms)
{
    timespec t {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&t, nullptr);
}

// A record of one kernel launch that no program of hpclab's contains.
void forge_trace(wire::CallOutcome& out)
{
    out.trace.traced = 1;
    out.trace.kernels = 1;
    wire::set_name(out.trace.kernel[0].name, sizeof out.trace.kernel[0].name, "_Z10vecadd_gpuPKiS0_Pii");
    for (int d = 0; d < 3; ++d) out.trace.kernel[0].grid[d] = out.trace.kernel[0].block[d] = 1;
}

// What an honest harness records of the launch vecadd1 asks for: n blocks
// of one thread.
void record_launch(wire::CallOutcome& out, const wire::Job& job)
{
    out.trace.traced = 1;
    out.trace.kernels = 1;
    wire::set_name(out.trace.kernel[0].name, sizeof out.trace.kernel[0].name, "_Z3addPKiS0_Pii");
    out.trace.kernel[0].grid[0] = static_cast<std::int32_t>(job.params[0].value);
    out.trace.kernel[0].grid[1] = out.trace.kernel[0].grid[2] = 1;
    for (int d = 0; d < 3; ++d) out.trace.kernel[0].block[d] = 1;
}

// ... of a call that created two streams and destroyed one (its ledger,
// wire::ResourceLedger) ...
void leave_stream(wire::CallOutcome& out, const wire::Job& job)
{
    record_launch(out, job);
    const int stream = static_cast<int>(wire::ResourceKind::stream);
    out.trace.resources.traced = 1;
    out.trace.resources.made[stream] = 2;
    out.trace.resources.left[stream] = 1;
    wire::set_name(out.trace.resources.made_by[stream], wire::kApiNameLen, "cudaStreamCreate");
}

// ... and of a call that copied both inputs back to the host (to add them there).
void read_back(wire::CallOutcome& out, const wire::Job& job)
{
    record_launch(out, job);
    out.trace.copies = 2;
    out.trace.d2h_bytes = 2 * job.params[0].value * sizeof(int);
}

// ... and of a program whose global object made a device buffer before
// main and held it (wire::Result::before_main).
void hold_from_start(wire::Result& result)
{
    const int memory = static_cast<int>(wire::ResourceKind::device_memory);
    result.before_main.traced = 1;
    result.before_main.made[memory] = result.before_main.left[memory] = 1;
    result.before_main.bytes_left[memory] = 4096;
    wire::set_name(result.before_main.made_by[memory], wire::kApiNameLen, "cudaMalloc");
}

void try_read(const std::string& path)
{
    const int fd = open(path.c_str(), O_RDONLY);
    std::fprintf(stderr, "%s\n", fd >= 0 ? "read ok" : "read refused");
    if (fd >= 0) close(fd);
}

void try_connect(int port)
{
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = s >= 0 && connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    std::fprintf(stderr, "%s\n", ok ? "connect ok" : "connect refused");
    if (s >= 0) close(s);
}

// A grandchild in a session of its own, its parent gone: nothing ties it to
// the run but the sandbox (or hpclab's sweep).
void leave_orphan()
{
    if (fork() != 0) {
        std::fprintf(stderr, "orphan left\n");
        return;
    }
    setsid();
    if (fork() != 0) _exit(0);
    for (int fd = 0; fd < 3; ++fd) close(fd);
    sleep(60);
    _exit(0);
}

void write_big()
{
    FILE* f = std::fopen("big.bin", "wb");
    static char block[1 << 20];
    for (int i = 0; f && i < 200; ++i) std::fwrite(block, 1, sizeof block, f);
    if (f) std::fclose(f);
}

void sandbox_trick(const std::string& trick)
{
    if (trick.rfind("read_path=", 0) == 0) try_read(trick.substr(10));
    if (trick.rfind("net_connect=", 0) == 0) try_connect(std::atoi(trick.c_str() + 12));
    if (trick.rfind("print_env=", 0) == 0) {  // what hpclab set in its environment
        const char* v = std::getenv(trick.c_str() + 10);
        std::fprintf(stderr, "%s=%s\n", trick.c_str() + 10, v ? v : "(unset)");
    }
    if (trick == "orphan") leave_orphan();
    if (trick == "write_big") write_big();
}

void play(const std::string& trick, const wire::Job& job, unsigned char* file, std::uint32_t k)
{
    std::int32_t *a = buffer(job, file, k, "a"), *b = buffer(job, file, k, "b"), *c = buffer(job, file, k, "c");
    if (trick == "skip_compute") return;
    if (trick == "claim_fast") sleep_ms(40);
    if (trick == "zero_outputs") {
        for (std::uint32_t i = 0; i < job.nbuffers; ++i)
            if (job.buffers[i].role == wire::Role::output)
                std::memset(file + wire::buffer_offset(job, k, job.buffers[i]), 0, job.buffers[i].count * 4);
        return;
    }
    if (a && b && c)
        for (std::uint64_t i = 0; i < job.buffers[2].count; ++i)
            c[i] = trick == "top_end" && a[i] >= 1000000 ? a[i] : a[i] + b[i];
    if (trick == "modify_input" && job.nbuffers > 0) buffer(job, file, k, job.buffers[0].name)[0] ^= 1;
}

// The inputs of handshake j's call, made from its seed, by name: in the
// program's own memory, as the harness makes them on the GPU (a parent-clock
// job's inputs take no room in the file).
std::map<std::string, std::vector<std::int32_t>> make_inputs(const wire::Job& job, std::uint64_t seed)
{
    std::map<std::string, std::vector<std::int32_t>> made;
    for (std::uint32_t b = 0; b < job.nbuffers; ++b) {
        const wire::Buffer& d = job.buffers[b];
        if (d.role != wire::Role::input) continue;
        std::vector<std::int32_t>& out = made[d.name];
        out.resize(d.count);
        const std::uint64_t key = wire::stream_key(seed, d.fill_stream);
        const wire::FoldedRange range =
            wire::folded_range(static_cast<std::int64_t>(d.fill_lo), static_cast<std::int64_t>(d.fill_hi), d.fill_fold);
        for (std::uint64_t i = 0; i < d.count; ++i)
            out[i] = static_cast<std::int32_t>(wire::stream_folded(key, i, range));
    }
    return made;
}

std::uint64_t commit(const wire::Job& job, unsigned char* file, std::uint32_t k, std::uint64_t seed)
{
    std::uint64_t total = 0;
    for (std::uint32_t b = 0; b < job.nbuffers; ++b) {
        if (job.buffers[b].role != wire::Role::output) continue;
        const auto* words = reinterpret_cast<const std::uint32_t*>(file + wire::buffer_offset(job, k, job.buffers[b]));
        for (std::uint64_t i = 0; i < job.buffers[b].count; ++i) total += wire::commitment_term(seed, b, i, words[i]);
    }
    return total;
}

std::uint64_t wait_for_go(wire::Header* h, std::uint32_t j)
{
    wire::store_release(h->handshake.ready, j + 1);
    while (wire::load_acquire(h->handshake.go) != j + 1) {
    }
    return h->handshake.seed[j];
}

void say_done(wire::Header* h, std::uint32_t j, std::uint64_t commitment)
{
    h->handshake.commitment[j] = commitment;
    wire::store_release(h->handshake.done, j + 1);
}

// A call on the parent's clock: inputs from the seed, vecadd (or the trick), done.
void revealed_call(const std::string& trick, wire::Header* h, unsigned char* file, std::uint32_t k)
{
    const wire::Job& job = h->job;
    const std::uint32_t j = job.empty_calls + k;
    const std::uint64_t seed = wait_for_go(h, j);
    auto inputs = make_inputs(job, seed);
    if (trick == "early_done") say_done(h, j, 0);
    if (trick == "sleepy") sleep_ms(30);
    if (trick == "claim_fast") sleep_ms(40);
    const bool discard = job.flags & wire::kFlagDiscardOutputs;
    if (trick == "replay" && k > 0) {
        for (std::uint32_t b = 0; b < job.nbuffers; ++b)
            if (job.buffers[b].role == wire::Role::output)
                std::memcpy(file + wire::buffer_offset(job, k, job.buffers[b]),
                            file + wire::buffer_offset(job, k - 1, job.buffers[b]), job.buffers[b].count * 4);
    } else if (!discard) {
        const std::vector<std::int32_t>&a = inputs["a"], &b = inputs["b"];
        std::int32_t* c = buffer(job, file, k, "c");
        for (std::uint64_t i = 0; c && i < job.buffers[2].count && i < a.size() && i < b.size(); ++i) c[i] = a[i] + b[i];
    }
    if (trick != "early_done") say_done(h, j, discard ? 0 : commit(job, file, k, seed));
}

// One exchange's run, as the harness does it; `trick` played in it.
int run_exchange(int fd, std::uint32_t index, const std::string& trick)
{
    unsigned char* file = nullptr;
    wire::Header* h = map_exchange(fd, file);
    const wire::Job job = h->job;
    const bool marked = job.flags & wire::kFlagMarker;
    if (marked) std::printf("\n%sexchange-%u@@\n", wire::tag_prefix(job.marker).c_str(), index);
    if (trick == "open_slowly") sleep_ms(1500);
    if (marked) std::printf("\n%sopened-%u@@\n", wire::tag_prefix(job.marker).c_str(), index);
    if (trick == "reopen")  // its own "GPU ready" line again and again, to push its time limit back
        for (;;) {
            sleep_ms(200);
            std::printf("\n%sopened-%u@@\n", wire::tag_prefix(job.marker).c_str(), index);
        }
    h->result.magic = wire::kMagic;
    h->result.stage = wire::Stage::started;
    if (trick == "unsealed" && ftruncate(fd, 0) == 0) return 3;  // it must not shrink
    sandbox_trick(trick);
    if (trick == "claim_unseen") {
        h->result.calls_done = job.ncalls;
        for (std::uint32_t k = 0; k < job.ncalls; ++k) h->result.calls[k].done = 1;
        h->result.stage = wire::Stage::finished;
        return wire::kExitOk;
    }
    if (trick == "crash") std::abort();
    if (trick == "flood") {
        const std::string line(1023, 'x');
        for (int i = 0; i < 1500; ++i) std::printf("%s\n", line.c_str());
    }
    if (trick == "crash_late") {
        sleep_ms(1000);
        std::abort();
    }
    if (trick == "hang") for (;;) sleep_ms(1000);
    if (trick == "slow_cuda_exit") {  // hpc.h's message, then an exit the driver holds up
        std::fprintf(stderr, "lab.cu:12: cudaCheckError() failed\n    kernel execution\n"
                             "    CUDA error 700 cudaErrorIllegalAddress: an illegal memory access was encountered\n");
        for (;;) sleep_ms(1000);
    }
    if (trick == "exit") std::exit(0);
    if (trick == "slow") sleep_ms(600);
    h->result.trace_available =
        trick == "forge_trace" || trick == "leave_stream" || trick == "read_back" || trick == "held_from_start";
    if (trick == "held_from_start") hold_from_start(h->result);
    const bool parent_clock = job.flags & wire::kFlagParentClock;
    for (std::uint32_t j = 0; parent_clock && j < job.empty_calls; ++j) say_done(h, j, wait_for_go(h, j) * 0);
    for (std::uint32_t k = 0; k < job.ncalls; ++k) {
        if (marked) std::printf("\n%sbegin-%u@@\n", wire::tag_prefix(job.marker).c_str(), k);
        const auto t0 = std::chrono::steady_clock::now();
        if (trick == "print") std::printf("printed in exchange %u\n", index);
        if (parent_clock) revealed_call(trick, h, file, k);
        else if (!(job.flags & wire::kFlagDiscardOutputs)) play(trick, job, file, k);  // as the harness: nothing comes back
        // What an honest harness reports: the call's own time.
        h->result.calls[k].host_ms = h->result.calls[k].gpu_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (marked) std::printf("\n@@hpclab-returned-%016llx@@\n", static_cast<unsigned long long>(job.marker));
        if (marked) std::printf("\n%send-%u@@\n", wire::tag_prefix(job.marker).c_str(), k);
        if (trick == "claim_fast" || trick == "sleepy") h->result.calls[k].gpu_ms = h->result.calls[k].host_ms = 0.001;
        if (trick == "forge_trace") forge_trace(h->result.calls[k]);
        if (trick == "leave_stream") leave_stream(h->result.calls[k], job);
        if (trick == "read_back") read_back(h->result.calls[k], job);
        if (trick == "held_from_start") record_launch(h->result.calls[k], job);
        h->result.calls[k].done = 1;
        h->result.calls_done = k + 1;
    }
    h->result.stage = wire::Stage::finished;
    if (trick == "linger") sleep_ms(60000);
    return wire::kExitOk;
}

}  // namespace

// A trick "<trick>@<e>" is played in exchange e only (the others honest):
// a program that runs several sizes and fails in one of them; "<first>,<rest>"
// plays one trick in the first exchange and another in the rest.
int main(int argc, char** argv)
{
    if (argc < 4) return wire::kExitHarnessError;
    std::string trick = argv[1];
    long at = -1;
    if (const auto pos = trick.find('@'); pos != std::string::npos) {
        at = std::atol(trick.c_str() + pos + 1);
        trick.resize(pos);
    }
    std::string rest = trick;
    if (const auto pos = trick.find(','); pos != std::string::npos) {
        rest = trick.substr(pos + 1);
        trick.resize(pos);
    }
    std::vector<int> fds;
    for (int i = 2; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--exchange-fd") == 0) fds.push_back(std::atoi(argv[i + 1]));
    std::setvbuf(stdout, nullptr, _IONBF, 0);  // as the harness: each line reaches the parent when printed
    for (std::size_t e = 0; e < fds.size(); ++e) {
        const std::string played = at >= 0 && static_cast<std::size_t>(at) != e ? "vecadd" : e == 0 ? trick : rest;
        const int status = run_exchange(fds[e], static_cast<std::uint32_t>(e), played);
        if (status != wire::kExitOk) return status;
    }
    return wire::kExitOk;
}
