// expect: pass
// why: honest and unusual: in each call the launch is captured into a CUDA graph on a stream of its own, instantiated, launched, and the graph, its executable graph and the stream destroyed before the call returns. The inputs are made on the GPU from the call's seed before the call starts, and the harness waits for the whole device before it commits to the outputs: the graph's work is in hpclab's time and its outputs are right. (Kept from one call to the next, the executable graph and its stream would be what the invariant "releases" forbids: a call releases what it makes.)
// timing: no (its speed, a graph built and released in every call, sits at the threshold: 0.65x the tuned baseline, spread 0.50..0.93, on an H200; its subject is the graph's life in a call)
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    cudaStream_t s;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaSafeCall(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaSafeCall(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    add<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM, 0, s>>>(d_a, d_b, d_c, n);
    cudaSafeCall(cudaStreamEndCapture(s, &graph));
    cudaSafeCall(cudaGraphInstantiate(&exec, graph, 0));
    cudaSafeCall(cudaGraphLaunch(exec, s));
    cudaSafeCall(cudaStreamSynchronize(s));
    cudaSafeCall(cudaGraphExecDestroy(exec));
    cudaSafeCall(cudaGraphDestroy(graph));
    cudaSafeCall(cudaStreamDestroy(s));
}
