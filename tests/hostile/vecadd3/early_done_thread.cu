// expect: tampering
// why: a thread started at its first call finds the exchange's handshake (the header's layout, copied from the course's grader) and spins on it: the moment hpclab says go, it says done (the call sleeps a moment first, to give the thread the program's one CPU), so that hpclab's clock stops before the harness has made the inputs, called the student or synchronised. The harness writes its commitment to the outputs only when the call is done; hpclab reads the commitment the moment it sees done, and outputs that do not match it are tampering
// timing: yes
#include "hpc.h"
#include "vecadd3.h"
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

/* The start of the exchange's header: the Job, then the Handshake. */
struct Param { char name[32]; int64_t value; };
struct Buffer {
    char name[32];
    uint32_t type, place, role, reserved;
    uint64_t count, offset, out_offset;
    uint32_t fill_stream, fill_reserved;
    double fill_lo, fill_hi;
};
struct Job {
    uint32_t magic, version;
    char lab[32], task[32];
    uint32_t nparams, nbuffers;
    Param params[8];
    Buffer buffers[16];  /* wire::kMaxBuffers since exchange version 5 */
    uint32_t ncalls, nsets, flags, reserved;
    uint64_t slot_bytes, out_slot_bytes, data_offset, guard_bytes, marker;
    uint32_t empty_calls, reserved2;
};
struct alignas(64) Handshake {
    uint32_t ready, pad0[15];
    uint32_t go, pad1[15];
    uint32_t done, pad2[15];
};
struct Header { Job job; Handshake handshake; };

static Handshake *find_handshake(void)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    Handshake *hs = NULL;
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        if (!strstr(line, "memfd:hpclab") || sscanf(line, "%lx-%lx", &lo, &hi) != 2) continue;
        Header *h = (Header *)lo;
        if (hi - lo >= sizeof(Header) && h->job.magic == 0x4C435048u) hs = &h->handshake;
    }
    if (maps) fclose(maps);
    return hs;
}

static void *say_done_at_go(void *arg)
{
    Handshake *hs = (Handshake *)arg;
    for (;;) {
        const uint32_t go = __atomic_load_n(&hs->go, __ATOMIC_ACQUIRE);
        if (go != 0 && __atomic_load_n(&hs->done, __ATOMIC_ACQUIRE) != go)
            __atomic_store_n(&hs->done, go, __ATOMIC_RELEASE);
        sched_yield();  /* it shares the program's CPU */
    }
    return NULL;
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    static bool started = false;
    Handshake *hs = started ? NULL : find_handshake();
    if (hs != NULL) {
        pthread_t t;
        pthread_create(&t, NULL, say_done_at_go, hs);
        pthread_detach(t);
        started = true;
    }
    /* the program has one CPU: give it to the thread, which says done now */
    usleep(300);
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
