// expect: not_on_gpu
// why: prints the expected greeting lines from the host, with no kernel at all: the program hpclab built has no kernel (nm finds no launch stub)
#include <cstdio>
#include "hpc.h"
#include "hello.h"

void hello(int nblocks, int nthreads)
{
    /* the lines the kernels would print, printed by the host */
    printf("Hello from the host: launching %d blocks of %d threads\n", nblocks, nthreads);
    for (int b = 0; b < nblocks; b++)
        for (int t = 0; t < nthreads; t++)
            printf("Hello from block %d, thread %d\n", b, t);
}
