// expect: compile_error
// why: includes the reference solution by the checkout's absolute path: the sandbox's view of the system has no course in it
#include "hpc.h"
#include "vecadd3.h"
#include "/work/main/solutions/vecadd3/vecadd3.cu"

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
}
