// expect: compile_error
// why: includes the reference solution by a path relative to the lab folder, which the -I path makes work outside a sandbox: the compile runs on a private copy in the sandbox, where no solutions/ folder exists
#include "hpc.h"
#include "vecadd3.h"
#include "../../solutions/vecadd3/vecadd3.cu"

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
}
