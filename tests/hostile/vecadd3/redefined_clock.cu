// expect: compile_error
// why: defines clock_gettime itself, returning a clock that barely moves, so that the harness's host timer (which calls it) would see each call take microseconds. The harness's clock comes from the C library: a file that defines a library function the program uses is refused before the link (run/link_check.h), by the symbol in its object
// timing: no
#include "hpc.h"
#include "vecadd3.h"
#include <time.h>
extern "C" int clock_gettime(clockid_t, struct timespec *ts)
{
    static long fake = 0;
    ts->tv_sec = 0;
    ts->tv_nsec = ++fake;
    return 0;
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    /* 200 scattered reads per element, whose sum the compiler cannot drop */
    if (i < n) { int s = 0; for (int r = 0; r < 200; r++) s += a[(i + 977 * r) % n]; c[i] = a[i] + b[i] + (s == 123456789); }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
