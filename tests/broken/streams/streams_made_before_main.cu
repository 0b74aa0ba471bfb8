// expect: not_released
// why: scale_overlap's eight streams are made once, by a global object's constructor before main, and destroyed only at exit: every result is right and each call overlaps its copies as the lesson asks, but the program holds eight streams through every call, made outside any call, which only the trace from before main can tell.
/*
 * streams.cu with one mistake: the streams belong to a global object made
 * before main, not to the call.
 */
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

/* MISTAKE: the streams are made once, before main, by this global object
   (and destroyed at exit): scale_overlap makes none of its own. */
struct Streams {
    cudaStream_t s[NSTREAMS];
    Streams() {
        for (int i = 0; i < NSTREAMS; i++) {
            cudaSafeCall( cudaStreamCreate(&s[i]) );
        }
    }
    ~Streams() {
        for (int i = 0; i < NSTREAMS; i++) {
            cudaStreamDestroy(s[i]);
        }
    }
};
static Streams streams;

void scale_overlap( const int *x, int *y, int n )
{
    int *d_x, *d_y;
    const size_t size = (size_t)n * sizeof(int);
    const int chunk = (n + NSTREAMS - 1) / NSTREAMS;
    cudaStream_t *stream = streams.s;

    cudaSafeCall( cudaMalloc((void **)&d_x, size) );
    cudaSafeCall( cudaMalloc((void **)&d_y, size) );
    for (int s = 0; s < NSTREAMS; s++) {
        const int start = s * chunk;
        const int len = (n - start < chunk ? n - start : chunk);
        if (len <= 0) break;
        const size_t bytes = (size_t)len * sizeof(int);
        cudaSafeCall( cudaMemcpyAsync(d_x + start, x + start, bytes, cudaMemcpyHostToDevice, stream[s]) );
        twice_plus_one<<<(len + BLKDIM - 1) / BLKDIM, BLKDIM, 0, stream[s]>>>(d_x + start, d_y + start, len);
        cudaSafeCall( cudaGetLastError() );
        cudaSafeCall( cudaMemcpyAsync(y + start, d_y + start, bytes, cudaMemcpyDeviceToHost, stream[s]) );
    }
    cudaSafeCall( cudaDeviceSynchronize() );
    cudaSafeCall( cudaFree(d_x) );
    cudaSafeCall( cudaFree(d_y) );
}
