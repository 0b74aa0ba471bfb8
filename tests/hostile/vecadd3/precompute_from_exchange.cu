// expect: not_released
// why: a slow kernel (scattered loads, as in forge_times_at_exit), and at its first call of a size a look through the exchange (its layout copied from the course's grader) for every input set it holds: each set's sums are computed on the host and put on the device, keyed by the set's first elements, in buffers cudaMalloc'ed in that call and kept for the next. A later call of the size whose inputs start as a stored set does one device copy instead of the kernel (an older hpclab put every timed input set in the exchange before the first call). The invariant "releases" stops it at its first call, before any timed call; behind it, the timed calls' inputs are made on the GPU from a seed sent as each call starts: none is in the exchange, no key matches, and the slow kernel is what hpclab would time
#include "hpc.h"
#include "vecadd3.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

#define MAX_SETS 64
static int known_n = -1;
static int known_sets = 0;
static int key[MAX_SETS][4];
static int *answer[MAX_SETS];
static int calls_at_n = 0;  /* the first call of a size computes: it is the one traced */

static const int *input_of(const unsigned char *file, const Job *job, uint32_t set, const char *name)
{
    for (uint32_t b = 0; b < job->nbuffers && b < 8; b++)
        if (strcmp(job->buffers[b].name, name) == 0)
            return (const int *)(file + job->data_offset + set * job->slot_bytes + job->buffers[b].offset);
    return NULL;
}

static void precompute(int n)
{
    for (int s = 0; s < known_sets; s++) cudaSafeCall(cudaFree(answer[s]));
    known_sets = 0;
    known_n = n;
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps && fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        if (!strstr(line, "memfd:hpclab") || sscanf(line, "%lx-%lx", &lo, &hi) != 2) continue;
        const unsigned char *file = (const unsigned char *)lo;
        const Job *job = (const Job *)file;
        if (job->magic != 0x4C435048u) continue;
        int *sums = (int *)malloc((size_t)n * sizeof(int));
        for (uint32_t set = 0; set < job->nsets && known_sets < MAX_SETS; set++) {
            const int *a = input_of(file, job, set, "a"), *b = input_of(file, job, set, "b");
            if (a == NULL || b == NULL || (unsigned long)(b + n) > hi || (unsigned long)(a + n) > hi) continue;
            for (int i = 0; i < n; i++) sums[i] = a[i] + b[i];
            memcpy(key[known_sets], a, sizeof key[0]);
            cudaSafeCall(cudaMalloc((void **)&answer[known_sets], (size_t)n * sizeof(int)));
            cudaSafeCall(cudaMemcpy(answer[known_sets], sums, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
            known_sets++;
        }
        free(sums);
    }
    if (maps) fclose(maps);
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    const int j = (n & (n - 1)) == 0 ? (int)(((unsigned)i * 4097u) & (unsigned)(n - 1)) : i;
    c[j] = a[j] + b[j];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    if (n != known_n) { precompute(n); calls_at_n = 0; }
    if (n >= 4 && calls_at_n++ > 0) {
        int first[4];
        cudaSafeCall(cudaMemcpy(first, d_a, sizeof first, cudaMemcpyDeviceToHost));
        for (int s = 0; s < known_sets; s++)
            if (memcmp(first, key[s], sizeof first) == 0) {
                cudaSafeCall(cudaMemcpy(d_c, answer[s], (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice));
                return;
            }
    }
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
