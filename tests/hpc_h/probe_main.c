/* hpc_h_probe_c: hpc.h in a plain C program of two files (no CUDA: only
   hpc_gettime exists there). Exits 0 when the clock is monotonic and counts
   seconds. */
#include "hpc.h"

#include <unistd.h>

double second_file_gettime(void);

int main(void)
{
    const double t0 = hpc_gettime();
    usleep(20000);
    const double t1 = second_file_gettime();
    printf("elapsed %.6f\n", t1 - t0);
    return (t1 - t0 >= 0.019 && t1 - t0 < 5.0) ? 0 : 1;
}
