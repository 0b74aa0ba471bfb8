// expect: compile_error
// why: defines main itself: it would never link the harness's main, read the exchange with its own code, add the vectors on the host and write every line, trace and time the parent reads. The course provides main; a student's object that defines it is refused before the link, by the symbol in its object (run/link_check.h)
#include "hpc.h"
#include "vecadd3.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) c[i] = a[i] + b[i];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
}

/* A stand-in for the harness: it would map the exchange (--exchange-fd N),
   compute every call on the host and print the begin and end lines itself. */
int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--exchange-fd") == 0) printf("exchange %d\n", atoi(argv[i + 1]));
    return 0;
}
