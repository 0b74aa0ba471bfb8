// hpclab-bench: kind=naive tasks=add title="one thread per block (vecadd1's layout)"
//
// The slow layout the lesson starts from: n blocks of one thread each.
#include "hpc.h"
#include "vecadd3.h"

__global__ void add_one(const int *a, const int *b, int *c, int n)
{
    const long long i = blockIdx.x + (long long)blockIdx.y * gridDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    // gridDim.x is at most 2^31 - 1 but y is at most 65535: rows of 65535 blocks.
    const int per_row = 65535;
    dim3 grid(n < per_row ? n : per_row, (n + per_row - 1) / per_row);
    add_one<<<grid, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
