// expect: compile_error
// why: defines the harness's trace hooks (hpclab::trace::start, begin_call, end_call) as empty functions, so that the archive's trace would never be linked: a wrong launch shape and a missing cudaFree would leave no record. A student's object may not define what the harness defines: refused before the link, by the symbols in its object (run/link_check.h)
#include "hpc.h"
#include "vecadd3.h"

namespace hpclab {
namespace wire { struct CallTrace; }
namespace trace {
bool start() { return false; }
void begin_call(wire::CallTrace *) {}
void end_call() {}
}  // namespace trace
}  // namespace hpclab

__global__ void add(const int *a, const int *b, int *c, int n)
{
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];  /* one thread does it all */
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    int *scratch;
    cudaSafeCall(cudaMalloc((void **)&scratch, 1 << 20));  /* never freed */
    add<<<1, 1>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
