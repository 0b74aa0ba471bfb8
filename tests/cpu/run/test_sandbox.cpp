// The sandbox against a stand-in lab program (tests/standin) that tries to
// reach the network, read the course's solutions, leave a process behind
// and fill the disk. Where bubblewrap cannot make a sandbox (not installed,
// no user namespaces), the sandbox's own tests say so and stop.
#include "check/evidence.h"
#include "gpu/gpu_probe.h"
#include "run/task_runner.h"
#include "run/run_recipe.h"
#include "process/sandbox.h"
#include "test_support.h"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace hpclab;
using hpclab::test::lab_of;
namespace fs = std::filesystem;

namespace {

RunReport run_trick(const std::string& trick, bool sandboxed, const LabInfo& lab)
{
    const RunTarget t {.lab = &lab, .task = &lab.tasks.front(), .program = "lab-program", .params = {{"n", 1000}}, .seed = 3};
    RunRequest req = correctness_run(t);
    req.wrapper = {HPCLAB_LAB_STANDIN, trick};
    req.sandboxed = sandboxed;
    return run_task(req);
}

RunReport run_trick(const std::string& trick, bool sandboxed = true, const std::string& lab_id = "vecadd1")
{
    return run_trick(trick, sandboxed, lab_of(lab_id));
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Processes of the stand-in still alive below this test process (a leftover
// orphan), by their executable and their line of parents: other tests' stand-ins,
// running beside this one, are not ours.
int parent_of(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(line.substr(close + 2));
    char state = 0;
    int ppid = 0;
    rest >> state >> ppid;
    return ppid;
}

bool descends_from_me(pid_t pid)
{
    for (int hops = 0; pid > 1 && hops < 64; ++hops) {
        pid = parent_of(pid);
        if (pid == getpid()) return true;
    }
    return false;
}

int my_standins_alive()
{
    int n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        std::error_code ec2;
        const fs::path exe = fs::read_symlink(e.path() / "exe", ec2);
        if (ec2 || exe != fs::path(HPCLAB_LAB_STANDIN)) continue;
        const std::string name = e.path().filename();
        if (descends_from_me(std::stoi(name))) ++n;
    }
    return n;
}

// A listener on loopback, for the duration of a test.
struct Listener {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int port = 0;
    Listener()
    {
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        listen(fd, 4);
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
    }
    ~Listener() { close(fd); }
};

}  // namespace

#define REQUIRE_SANDBOX()                                                                   \
    if (const auto why = sandbox_unavailable()) {                                           \
        MESSAGE("no sandbox here, its tests are left out: " << *why);                        \
        return;                                                                             \
    }

// run/run_recipe.h cuda_env: one hardware queue per context makes a class's hundreds
// of contexts three times faster; the program gets it with or without the sandbox.
TEST_CASE("a lab program runs with one CUDA connection, sandboxed or not")
{
    const std::string trick = "print_env=CUDA_DEVICE_MAX_CONNECTIONS";
    CHECK(has(run_trick(trick, false).process.err, "CUDA_DEVICE_MAX_CONNECTIONS=1\n"));
    if (sandbox_unavailable()) return;
    CHECK(has(run_trick(trick).process.err, "CUDA_DEVICE_MAX_CONNECTIONS=1\n"));
}

// ... unless its lab.json asks for more ("device_max_connections": no lab
// of the course does since the streams lab's overlap was measured the same
// with one queue: docs/results/streams-connections-h200.txt).
TEST_CASE("a lab program runs with its lab's CUDA connections, sandboxed or not")
{
    const std::string trick = "print_env=CUDA_DEVICE_MAX_CONNECTIONS";
    LabInfo lab = lab_of("vecadd1");
    lab.device_max_connections = 8;
    CHECK(has(run_trick(trick, false, lab).process.err, "CUDA_DEVICE_MAX_CONNECTIONS=8\n"));
    if (sandbox_unavailable()) return;
    CHECK(has(run_trick(trick, true, lab).process.err, "CUDA_DEVICE_MAX_CONNECTIONS=8\n"));
}

TEST_CASE("sandbox: a run cannot read the course's solutions, and can read the system")
{
    REQUIRE_SANDBOX();
    const fs::path solution = fs::absolute(lab_of("vecadd1").solution_source());
    REQUIRE(fs::exists(solution));
    CHECK(has(run_trick("read_path=" + solution.string(), false).process.err, "read ok"));  // the trick works
    const RunReport r = run_trick("read_path=" + solution.string());
    CHECK(has(r.process.err, "read refused"));
    CHECK(r.status == RunStatus::completed);
    CHECK(has(run_trick("read_path=/etc/hostname").process.err, "read ok"));
}

TEST_CASE("sandbox: a run has no network, not even loopback")
{
    REQUIRE_SANDBOX();
    const Listener listener;
    const std::string trick = "net_connect=" + std::to_string(listener.port);
    CHECK(has(run_trick(trick, false).process.err, "connect ok"));
    CHECK(has(run_trick(trick).process.err, "connect refused"));
}

TEST_CASE("sandbox: a process left behind in a session of its own dies with the run")
{
    REQUIRE_SANDBOX();
    const RunReport r = run_trick("orphan");
    CHECK(has(r.process.err, "orphan left"));
    CHECK(r.process.wall_s < 10);  // hpclab did not wait for it
    // The kernel ends the namespace's processes as its first one exits: a moment.
    for (int i = 0; i < 30 && my_standins_alive() > 0; ++i) usleep(100000);
    CHECK(my_standins_alive() == 0);
}

TEST_CASE("sandbox: a file past the size limit ends the run as resource_limit, sandboxed or not")
{
    for (const bool sandboxed : {true, false}) {
        if (sandboxed && sandbox_unavailable()) continue;
        const RunReport r = run_trick("write_big", sandboxed);
        CHECK(r.status == RunStatus::limit_hit);
        CHECK(verdict_of_run(lab_of("vecadd1").tasks.front(), {{"n", 1000}}, r).verdict == Verdict::resource_limit);
    }
}

TEST_CASE("sandbox: the command line binds only what it is given, and the GPU's nodes as devices")
{
    SandboxSpec sb;
    sb.read_only = {"/usr"};
    sb.writable = {"/tmp/work"};
    sb.work_dir = "/tmp/work";
    sb.gpu = true;
    sb.gpu_minor = 3;
    sb.env = {{"PATH", "/usr/bin"}};
    const auto a = sandboxed_argv(sb, {"/prog", "--x"});
    // Its arguments, past bwrap itself (which may live anywhere: HPCLAB_BWRAP).
    const std::string line = [&] { std::string s; for (std::size_t i = 1; i < a.size(); ++i) s += a[i] + " "; return s; }();
    CHECK(has(line, "--unshare-all"));
    CHECK(has(line, "--die-with-parent"));
    CHECK(has(line, "--clearenv"));
    CHECK(has(line, "--dev-bind-try /dev/nvidia-uvm-tools /dev/nvidia-uvm-tools"));
    CHECK(has(line, "--dev-bind-try /dev/nvidia3 /dev/nvidia3"));  // its GPU's node, and no other
    CHECK_FALSE(has(line, "/dev/nvidia0"));
    CHECK(has(line, "--bind /tmp/work /tmp/work"));
    CHECK(has(line, "--chdir /tmp/work"));
    CHECK(a.back() == "--x");
    CHECK_FALSE(has(line, hpclab::test::course_root().string()));  // nothing of the course it was not given
    CHECK(system_view("/usr/src/course").empty());  // a course inside /usr: no view can hide it
}

TEST_CASE("sandbox: the GPUs' device nodes are /dev/nvidia<N> alone, not the driver's own nodes")
{
    hpclab::test::TempDir dev;
    for (const char* name : {"nvidia0", "nvidia1", "nvidia10", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset", "null"})
        dev.write(name, "");
    std::filesystem::create_directories(dev.path() / "nvidia-caps");
    CHECK(gpu_node_minors(dev.path()) == std::vector<int> {0, 1, 10});
    CHECK(gpu_node_minors(dev.path() / "absent").empty());
}

TEST_CASE("orphans: without a sandbox too, a process left behind in a session of its own is ended with the run")
{
    const RunReport r = run_trick("orphan", false);
    CHECK(has(r.process.err, "orphan left"));
    // hpclab is the reaper of its line, so an orphan it missed would be found below this process.
    int reaper = 0;
    prctl(PR_GET_CHILD_SUBREAPER, &reaper);
    CHECK(reaper == 1);
    for (int i = 0; i < 30 && my_standins_alive() > 0; ++i) usleep(100000);
    CHECK(my_standins_alive() == 0);
}
