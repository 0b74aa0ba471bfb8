// expect: too_slow
// why: honest, and honestly slow: stream-ordered memory (cudaMallocAsync / cudaFreeAsync) for a small counter on a stream it creates and destroys in every call; the stream's creation and the pool giving its memory back at each synchronisation cost about 0.3 ms a call on the H200 (0.17x the tuned baseline), which hpclab's clock sees as it would any other work of the call. Right answers, no leak: only the speed fails
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
