// hpclab-bench: kind=further tasks=add title="grid-stride loop, a fixed grid of 4 blocks per SM"
//
// vecadd3 with a grid-stride loop: a grid sized for the GPU, not for n;
// each thread adds every (gridDim.x * blockDim.x)-th element.
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 256

__global__ void add_strided(const int *a, const int *b, int *c, int n)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = threadIdx.x + (long long)blockIdx.x * blockDim.x; i < n; i += stride) {
        c[i] = a[i] + b[i];
    }
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    int device = 0, sms = 0;
    cudaSafeCall(cudaGetDevice(&device));
    cudaSafeCall(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const long long needed = ((long long)n + BLKDIM - 1) / BLKDIM;
    const int blocks = (int)(needed < 4LL * sms ? needed : 4LL * sms);
    add_strided<<<blocks, BLKDIM>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
