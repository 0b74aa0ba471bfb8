/****************************************************************************
 *
 * vecadd0.cu - Add two integers on the GPU
 *
 * Based on the course's cuda-vecadd0.cu (Moreno Marzolla, "CUDA
 * Programming", after Mark Harris's "CUDA C/C++ Basics").
 *
 * The host (CPU) and the device (GPU) have separate memories. A kernel
 * can only read and write device memory, and the host must not
 * dereference a device pointer. So adding two ints on the GPU takes five
 * steps on the host around a one-line kernel:
 *
 *     1. cudaMalloc()   room on the device for the inputs and the result
 *     2. cudaMemcpy()   the inputs, host -> device
 *     3. add<<<1,1>>>   the kernel, one block of one thread
 *     4. cudaMemcpy()   the result, device -> host (it waits for the kernel)
 *     5. cudaFree()     give the device memory back
 *
 * Here a, b and c point to ints in HOST memory: add_on_device() receives
 * them and must do the five steps itself.
 *
 * Run it (builds it, checks it against the CPU and times it):
 *
 *     hpclab run vecadd0
 *
 ****************************************************************************/
#include <stdio.h>
#include "hpc.h"
#include "vecadd0.h"

__global__ void add( const int *a, const int *b, int *c )
{
    /* TODO 1: store the sum of the int at a and the int at b into the
       int at c. a, b and c are DEVICE pointers here. */
}

void add_on_device( const int *a, const int *b, int *c )
{
    int *d_a = NULL, *d_b = NULL, *d_c = NULL; /* device copies of *a, *b, *c */
    const size_t size = sizeof(int);

    /* TODO 2: allocate room for one int on the device for each of d_a,
       d_b and d_c: cudaSafeCall( cudaMalloc((void **)&d_a, size) ); ... */

    /* TODO 3: copy *a into d_a and *b into d_b (cudaMemcpyHostToDevice). */

    /* The launch: one block of one thread. Before TODO 2 is done, d_a,
       d_b and d_c are NULL, so do TODO 1 only together with TODO 2. */
    add<<<1, 1>>>(d_a, d_b, d_c);
    cudaCheckError();

    /* TODO 4: copy the result from d_c into *c (cudaMemcpyDeviceToHost). */

    /* TODO 5: free d_a, d_b and d_c (cudaFree). */

    (void)size; /* keeps the compiler quiet until TODO 2 uses size: remove it then */
}
