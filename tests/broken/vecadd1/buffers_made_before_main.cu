// expect: not_released
// why: the device copies are made once, at the lab's largest n, by a global object's constructor before main, and freed by its destructor at exit: every sum is right, each call frees what it makes (nothing), but the program holds 3 x 2^24 ints of device memory through every call, made outside any call, which only the trace from before main can tell.
/*
 * vecadd1.cu with one mistake: the device buffers belong to a global object
 * made before main, not to the call.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd1.h"

#define MAX_N (1 << 24) /* vecadd1's largest n */

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = blockIdx.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

/* MISTAKE: the buffers are made once, before main, by this global object,
   and reused by every call; the call makes and releases nothing of its own. */
struct DeviceBuffers {
    int *a, *b, *c;
    DeviceBuffers() {
        const size_t size = (size_t)MAX_N * sizeof(int);
        cudaSafeCall( cudaMalloc((void **)&a, size) );
        cudaSafeCall( cudaMalloc((void **)&b, size) );
        cudaSafeCall( cudaMalloc((void **)&c, size) );
    }
    ~DeviceBuffers() {
        cudaFree(a); cudaFree(b); cudaFree(c);
    }
};
static DeviceBuffers d;

void vecadd1( const int *a, const int *b, int *c, int n )
{
    const size_t size = (size_t)n * sizeof(int);

    cudaSafeCall( cudaMemcpy(d.a, a, size, cudaMemcpyHostToDevice) );
    cudaSafeCall( cudaMemcpy(d.b, b, size, cudaMemcpyHostToDevice) );

    add<<<n, 1>>>(d.a, d.b, d.c, n);
    cudaCheckError();

    cudaSafeCall( cudaMemcpy(c, d.c, size, cudaMemcpyDeviceToHost) );
}
