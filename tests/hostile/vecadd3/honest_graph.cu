// expect: pass
// why: honest and unusual: its launch captured into a CUDA graph on a stream of its own, instantiated once and launched again in each call while the buffers and n stay the same. The inputs are made on the GPU from the call's seed before the call starts, and the harness waits for the whole device before it commits to the outputs: the graph's work is in hpclab's time and its outputs are right
// timing: yes
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

/* The graph of the last call, launched again while the pointers and n are
   the same (they are, call after call, in one run): built once, not per call. */
static cudaGraphExec_t exec = NULL;
static cudaStream_t s;
static const int *last_a = NULL, *last_b = NULL;
static int *last_c = NULL;
static int last_n = -1;

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    if (exec == NULL || d_a != last_a || d_b != last_b || d_c != last_c || n != last_n) {
        cudaGraph_t graph;
        if (exec != NULL) cudaSafeCall(cudaGraphExecDestroy(exec));
        else cudaSafeCall(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        cudaSafeCall(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM, 0, s>>>(d_a, d_b, d_c, n);
        cudaSafeCall(cudaStreamEndCapture(s, &graph));
        cudaSafeCall(cudaGraphInstantiate(&exec, graph, 0));
        cudaSafeCall(cudaGraphDestroy(graph));
        last_a = d_a; last_b = d_b; last_c = d_c; last_n = n;
    }
    cudaSafeCall(cudaGraphLaunch(exec, s));
    cudaSafeCall(cudaStreamSynchronize(s));
}
