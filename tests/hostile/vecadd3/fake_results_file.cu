// expect: no_output
// why: writes results.json and a grade record claiming full marks into its folder and computes nothing: the folder is the run's private one, and hpclab never reads what a program writes there
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    FILE *f = fopen("results.json", "w");
    if (f) { fputs("{\"score\": 100, \"tests\": [{\"status\": \"passed\"}]}\n", f); fclose(f); }
    f = fopen("../records/vecadd3-pass.json", "w");
    if (f) { fputs("{\"overall\": \"pass\"}\n", f); fclose(f); }
}
