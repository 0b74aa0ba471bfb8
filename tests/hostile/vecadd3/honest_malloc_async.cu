// expect: pass
// why: honest and unusual: stream-ordered memory (cudaMallocAsync / cudaFreeAsync) for a scratch copy of a, on a stream of its own that the call waits for; allocated and freed within the call, so no leak, and the result right
// timing: yes
#include "hpc.h"
#include "vecadd3.h"

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    cudaStream_t s;
    int *scratch;
    cudaSafeCall(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaSafeCall(cudaMallocAsync((void **)&scratch, (size_t)n * sizeof(int), s));
    cudaSafeCall(cudaMemcpyAsync(scratch, d_a, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice, s));
    add<<<(n + 1023) / 1024, 1024, 0, s>>>(scratch, d_b, d_c, n);
    cudaSafeCall(cudaFreeAsync(scratch, s));
    cudaSafeCall(cudaStreamSynchronize(s));
    cudaSafeCall(cudaStreamDestroy(s));
}
