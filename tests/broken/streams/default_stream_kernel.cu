// expect: slow_copies
// why: the kernel is launched without its stream, so it goes to the legacy default stream, which waits for all the work queued before it on every (blocking) stream and holds back all the work queued after it: no copy runs while a kernel does (a copy out may still run beside the next copy in, which is why the trace looks for copies beside kernels). The trace at n = 2^25 shows no copy in (host to device) while a kernel of another stream ran.
// task: overlap
/*
 * streams.cu with one mistake: the kernel launched on the default stream.
 * The rest is the solution.
 */
#include <stdio.h>
#include <stdlib.h>
#include "hpc.h"
#include "streams.h"

#define BLKDIM 1024
#define NSTREAMS 8

void *host_alloc( size_t bytes )
{
    void *p = NULL;
    cudaSafeCall( cudaHostAlloc(&p, bytes, cudaHostAllocDefault) );
    return p;
}

void host_free( void *p )
{
    cudaSafeCall( cudaFreeHost(p) );
}

__global__ void twice_plus_one( const int *x, int *y, int n )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        y[i] = 2 * x[i] + 1;
    }
}

void scale_pinned( const int *x, int *y, int n )
{
    int *d_x, *d_y;
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMalloc((void **)&d_x, size) );
    cudaSafeCall( cudaMalloc((void **)&d_y, size) );
    cudaSafeCall( cudaMemcpy(d_x, x, size, cudaMemcpyHostToDevice) );
    twice_plus_one<<<(n + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x, d_y, n);
    cudaCheckError();
    cudaSafeCall( cudaMemcpy(y, d_y, size, cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaFree(d_x) );
    cudaSafeCall( cudaFree(d_y) );
}

void scale_overlap( const int *x, int *y, int n )
{
    int *d_x, *d_y;
    const size_t size = (size_t)n * sizeof(int);
    const int chunk = (n + NSTREAMS - 1) / NSTREAMS;
    cudaStream_t stream[NSTREAMS];

    cudaSafeCall( cudaMalloc((void **)&d_x, size) );
    cudaSafeCall( cudaMalloc((void **)&d_y, size) );
    for (int s = 0; s < NSTREAMS; s++) {
        cudaSafeCall( cudaStreamCreate(&stream[s]) );
    }
    for (int s = 0; s < NSTREAMS; s++) {
        const int start = s * chunk;
        const int len = (n - start < chunk ? n - start : chunk);
        if (len <= 0) break;
        const size_t bytes = (size_t)len * sizeof(int);
        cudaSafeCall( cudaMemcpyAsync(d_x + start, x + start, bytes, cudaMemcpyHostToDevice, stream[s]) );
        /* MISTAKE: no stream in the launch: the default stream. */
        twice_plus_one<<<(len + BLKDIM - 1) / BLKDIM, BLKDIM>>>(d_x + start, d_y + start, len);
        cudaSafeCall( cudaGetLastError() );
        cudaSafeCall( cudaMemcpyAsync(y + start, d_y + start, bytes, cudaMemcpyDeviceToHost, stream[s]) );
    }
    cudaSafeCall( cudaDeviceSynchronize() );
    for (int s = 0; s < NSTREAMS; s++) {
        cudaSafeCall( cudaStreamDestroy(stream[s]) );
    }
    cudaSafeCall( cudaFree(d_x) );
    cudaSafeCall( cudaFree(d_y) );
}
