// expect: pass
// why: honest and unusual: a grid-stride loop over a grid sized by the occupancy API (as many blocks as the GPU holds at once), not one thread per element; every element is written, nothing past an end is read (the guard zones would spoil the sum), and it runs as fast as the lesson's kernel
// timing: yes
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    int device = 0, sms = 0, per_sm = 0;
    const int threads = 256;
    cudaSafeCall(cudaGetDevice(&device));
    cudaSafeCall(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    cudaSafeCall(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, add, threads, 0));
    int blocks = sms * per_sm;
    const int needed = (n + threads - 1) / threads;
    if (blocks > needed) blocks = needed;
    add<<<blocks, threads>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
