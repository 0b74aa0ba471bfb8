/* hello - Cy's */
#include <stdio.h>
#include "hpc.h"
#include "hello.h"

__global__ void say(void)
{
    printf("Hello from block %d, thread %d\n", blockIdx.x, threadIdx.x);
}

void hello(int nblocks, int nthreads)
{
    printf("Hello from the host: launching %d blocks of %d threads\n", nblocks, nthreads);
    say<<<nblocks, nthreads>>>();
    cudaCheckError();
}
