// expect: wrong_answer
// why: keeps the outputs of its first call at a size in a __device__ array (static memory, which no call allocates: the ledger of the invariant "releases" has nothing to see), and answers every later call of that size with a device copy of them (a replay of the warm-up's outputs, which costs one copy). It keeps one size at a time: in the correctness runs the size run again comes after others and is computed afresh; but each timed call gets inputs made from a fresh seed as it starts, and every timed output is checked: the replayed outputs are wrong from the second timed call on
// timing: yes
#include "hpc.h"
#include "vecadd3.h"

#define MAX_N (1 << 24)             /* the timing size: past it, nothing is kept */
__device__ int kept_outputs[MAX_N];
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
    if (n > MAX_N) return;
    if (kept == NULL) cudaSafeCall(cudaGetSymbolAddress((void **)&kept, kept_outputs));
    cudaSafeCall(cudaMemcpy(kept, d_c, (size_t)n * sizeof(int), cudaMemcpyDeviceToDevice));
    kept_n = n;
}
