// expect: too_slow
// why: honest, and honestly slow: stream-ordered memory (cudaMallocAsync / cudaFreeAsync) for a scratch copy of the output on a stream it creates and destroys in every call; the pool gives its memory back at each synchronisation, so every call maps the scratch's 64 MB afresh, then copies it to c: about 0.3 ms a call more on the H200 with only a 4-byte counter in the pool (0.17-0.45x the tuned baseline, too near the threshold: a check at 0.45x came out inconclusive), with the scratch: 0.25x, spread 0.23..0.26, in two checks on an H200 (docs/results/test-times-h200.txt, call X). hpclab's clock sees this as it would any other work of the call. Right answers, no leak: only the speed fails
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
    add<<<(n + 1023) / 1024, 1024, 0, s>>>(d_a, d_b, scratch, n);
    cudaSafeCall(cudaMemcpyAsync(d_c, scratch, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice, s));
    cudaSafeCall(cudaFreeAsync(scratch, s));
    cudaSafeCall(cudaStreamSynchronize(s));
    cudaSafeCall(cudaStreamDestroy(s));
}
