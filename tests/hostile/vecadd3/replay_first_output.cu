// expect: wrong_answer
// why: keeps the outputs of its first call at a size in a buffer of its own, and answers every later call of that size with a device copy of them (a replay of the warm-up's outputs, which costs one copy). Every size of the correctness runs is its first, and passes; but each timed call gets inputs made from a fresh seed as it starts, and every timed output is checked: the replayed outputs are wrong from the second timed call on
// timing: yes
#include "hpc.h"
#include "vecadd3.h"

static int *kept = NULL;
static int kept_n = 0;

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    if (kept != NULL && kept_n == n) {
        cudaSafeCall(cudaMemcpy(d_c, kept, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice));
        return;
    }
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
    if (kept != NULL) cudaSafeCall(cudaFree(kept));
    cudaSafeCall(cudaMalloc((void **)&kept, (size_t)n * sizeof(int)));
    cudaSafeCall(cudaMemcpy(kept, d_c, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice));
    kept_n = n;
}
