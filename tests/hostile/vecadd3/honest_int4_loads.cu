// expect: pass
// why: honest and unusual: 16-byte loads and stores (int4) for the body, one int at a time for the tail that does not fill an int4 and for pointers not 16-byte aligned; the same sums as the lesson's kernel, read and written once
// timing: yes
#include "hpc.h"
#include "vecadd3.h"

#include <stdint.h>

__global__ void add4(const int4 *a, const int4 *b, int4 *c, int n4)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n4) {
        const int4 x = a[i], y = b[i];
        c[i] = make_int4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
}

__global__ void add1(const int *a, const int *b, int *c, int from, int n)
{
    const int i = from + threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    const bool aligned = ((uintptr_t)d_a | (uintptr_t)d_b | (uintptr_t)d_c) % 16 == 0;
    const int n4 = aligned ? n / 4 : 0;
    if (n4 > 0) add4<<<(n4 + 255) / 256, 256>>>((const int4 *)d_a, (const int4 *)d_b, (int4 *)d_c, n4);
    const int rest = n - 4 * n4;
    if (rest > 0) add1<<<(rest + 255) / 256, 256>>>(d_a, d_b, d_c, 4 * n4, n);
    cudaCheckError();
}
