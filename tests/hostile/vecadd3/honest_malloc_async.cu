// expect: pass
// why: honest and unusual: stream-ordered memory (cudaMallocAsync / cudaFreeAsync) for a small counter of its own, set and used on a stream of its own that the call waits for; allocated and freed within the call, so no leak, and the result right
// timing: yes
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n, int *blocks_done)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
    if (threadIdx.x == 0) atomicAdd(blocks_done, 1);
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    cudaStream_t s;
    int *blocks_done;
    cudaSafeCall(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaSafeCall(cudaMallocAsync((void **)&blocks_done, sizeof(int), s));
    cudaSafeCall(cudaMemsetAsync(blocks_done, 0, sizeof(int), s));
    add<<<(n + 1023) / 1024, 1024, 0, s>>>(d_a, d_b, d_c, n, blocks_done);
    cudaSafeCall(cudaFreeAsync(blocks_done, s));
    cudaSafeCall(cudaStreamSynchronize(s));
    cudaSafeCall(cudaStreamDestroy(s));
}
