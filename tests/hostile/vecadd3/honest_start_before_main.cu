// expect: pass
// why: an honest control for what the invariant releases sees before main: a global object's constructor makes the CUDA context early (cudaFree(0)), reads the GPU's properties to choose the block size, and probes the device with a buffer it allocates and frees at once. It holds nothing when main begins (and the calls make nothing): it must pass.
/*
 * vecadd3.cu whose block size is chosen before main, by a global object.
 */
#include "hpc.h"
#include "vecadd3.h"

/* Chosen once, before main: the GPU's largest block, at most 1024. */
struct LaunchSetup {
    int blkdim;
    LaunchSetup() : blkdim(1024) {
        cudaDeviceProp prop;
        int *probe;
        cudaSafeCall( cudaFree(0) ); /* the context now, not in the first call */
        cudaSafeCall( cudaGetDeviceProperties(&prop, 0) );
        if (prop.maxThreadsPerBlock < blkdim) blkdim = prop.maxThreadsPerBlock;
        /* a probe of the device's memory: made and released at once */
        cudaSafeCall( cudaMalloc((void **)&probe, 1 << 20) );
        cudaSafeCall( cudaFree(probe) );
    }
};
static LaunchSetup setup;

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    add<<<(n + setup.blkdim - 1) / setup.blkdim, setup.blkdim>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
