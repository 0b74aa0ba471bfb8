// expect: pass
// why: honest: host_alloc pins ordinary heap memory in place (aligned_alloc, then cudaHostRegister) instead of cudaHostAlloc, and host_free unregisters it first: the copies are from page-locked memory all the same, so the lesson's pinned copies and overlap hold, and each call releases what it makes
#include <stdio.h>
#include <stdlib.h>
#include "hpc.h"
#include "streams.h"

#define BLKDIM 1024
#define NSTREAMS 8

void *host_alloc( size_t bytes )
{
    const size_t page = 4096;
    void *p = aligned_alloc(page, (bytes + page - 1) / page * page);
    if (p != NULL) {
        cudaSafeCall( cudaHostRegister(p, bytes, cudaHostRegisterDefault) );
    }
    return p;
}

void host_free( void *p )
{
    cudaSafeCall( cudaHostUnregister(p) );
    free(p);
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
        twice_plus_one<<<(len + BLKDIM - 1) / BLKDIM, BLKDIM, 0, stream[s]>>>(d_x + start, d_y + start, len);
        cudaSafeCall( cudaGetLastError() );
        cudaSafeCall( cudaMemcpyAsync(y + start, d_y + start, bytes, cudaMemcpyDeviceToHost, stream[s]) );
    }
    /* y is complete only when every stream is done. */
    cudaSafeCall( cudaDeviceSynchronize() );
    for (int s = 0; s < NSTREAMS; s++) {
        cudaSafeCall( cudaStreamDestroy(stream[s]) );
    }
    cudaSafeCall( cudaFree(d_x) );
    cudaSafeCall( cudaFree(d_y) );
}
