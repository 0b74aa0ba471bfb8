// With NO_CUDA_CHECK_ERROR the checks are off, as in the course: the failing
// call is still made, and the program goes on.
#define NO_CUDA_CHECK_ERROR
#include "hpc.h"

bool unchecked_call_survives()
{
    cudaSafeCall(cudaErrorInvalidValue);
    cudaCheckError();
    return true;
}
