// expect: not_on_gpu
// why: each function copies a[] to the host, counts there and copies the counts back, with a cudaMemset for show: the right counts, but no kernel runs in any call (the invariant on_gpu)
#include <stdlib.h>
#include <string.h>
#include "hpc.h"
#include "histogram.h"

static void host_count(const int *d_a, int n, int *d_hist, int bins)
{
    int *a = (int *)malloc((size_t)n * sizeof(int));
    int *h = (int *)calloc((size_t)bins, sizeof(int));
    int i;
    cudaSafeCall(cudaMemset(d_hist, 0, bins * sizeof(int)));
    cudaSafeCall(cudaMemcpy(a, d_a, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost));
    for (i = 0; i < n; i++) h[a[i]]++;
    cudaSafeCall(cudaMemcpy(d_hist, h, bins * sizeof(int), cudaMemcpyHostToDevice));
    free(a);
    free(h);
}

void histogram_global(const int *d_a, int n, int *d_hist, int bins) { host_count(d_a, n, d_hist, bins); }
void histogram_shared(const int *d_a, int n, int *d_hist, int bins) { host_count(d_a, n, d_hist, bins); }
