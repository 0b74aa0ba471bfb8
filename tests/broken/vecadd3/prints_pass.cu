// expect: no_output
// why: prints "PASS" and "Check OK" and computes nothing: the parent never trusts what the program prints, and every element of c still holds the poison (no kernel ran either, but unwritten output ranks higher).
/*
 * vecadd3.cu with one "mistake": it claims success and does nothing.
 */
#include <stdio.h>
#include "hpc.h"
#include "vecadd3.h"

#define BLKDIM 1024

__global__ void add( const int *a, const int *b, int *c, int n )
{
    const int index = threadIdx.x + blockIdx.x * blockDim.x;
    if (index < n) {
        c[index] = a[index] + b[index];
    }
}

void vecadd( const int *d_a, const int *d_b, int *d_c, int n )
{
    /* MISTAKE: no launch at all, only the words a checker might look for */
    (void)d_a; (void)d_b; (void)d_c;
    printf("vecadd: n = %d\n", n);
    printf("PASS\n");
    printf("Check OK\n");
}
