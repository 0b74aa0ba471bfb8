// expect: pass
// timing: yes
// why: honest: scale_overlap issues its work breadth-first, each step in its own loop over the streams (every chunk's copy in, then every kernel, then every copy out), the order docs/streams.md question 3 asks about: each chunk still waits only for its own stream, so the copies run beside other chunks' kernels whatever the hardware queues (CUDA_DEVICE_MAX_CONNECTIONS), and the trace and the timing must see the overlap
#include <stdio.h>
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

/* The chunk of stream s: its first element and its length (0: no chunk). */
static int chunk_start( int s, int chunk ) { return s * chunk; }
static int chunk_len( int s, int chunk, int n )
{
    const int start = chunk_start(s, chunk);
    return start >= n ? 0 : (n - start < chunk ? n - start : chunk);
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
    /* Every chunk's copy in, */
    for (int s = 0; s < NSTREAMS; s++) {
        const int start = chunk_start(s, chunk), len = chunk_len(s, chunk, n);
        if (len > 0) {
            cudaSafeCall( cudaMemcpyAsync(d_x + start, x + start, (size_t)len * sizeof(int), cudaMemcpyHostToDevice, stream[s]) );
        }
    }
    /* then every chunk's kernel, */
    for (int s = 0; s < NSTREAMS; s++) {
        const int start = chunk_start(s, chunk), len = chunk_len(s, chunk, n);
        if (len > 0) {
            twice_plus_one<<<(len + BLKDIM - 1) / BLKDIM, BLKDIM, 0, stream[s]>>>(d_x + start, d_y + start, len);
            cudaSafeCall( cudaGetLastError() );
        }
    }
    /* then every chunk's copy out. */
    for (int s = 0; s < NSTREAMS; s++) {
        const int start = chunk_start(s, chunk), len = chunk_len(s, chunk, n);
        if (len > 0) {
            cudaSafeCall( cudaMemcpyAsync(y + start, d_y + start, (size_t)len * sizeof(int), cudaMemcpyDeviceToHost, stream[s]) );
        }
    }
    cudaSafeCall( cudaDeviceSynchronize() );
    for (int s = 0; s < NSTREAMS; s++) {
        cudaSafeCall( cudaStreamDestroy(stream[s]) );
    }
    cudaSafeCall( cudaFree(d_x) );
    cudaSafeCall( cudaFree(d_y) );
}
