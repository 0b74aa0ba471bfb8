// hpclab-bench: kind=library tasks=naive,tiled title="cuBLAS SGEMM in fp32 (no TF32 tensor cores)" link=cublas
/****************************************************************************
 *
 * cublas.cu - matmul through cuBLAS: the library's fp32 SGEMM
 *
 * Not part of the lesson: the yardstick for the lab's kernels. Same
 * contract as labs/matmul/matmul.h (row-major n x n floats, device
 * pointers, any n from 1 to 32768); both entry points call cublasSgemm.
 *
 * - fp32 only: the handle's math mode is set to CUBLAS_DEFAULT_MATH, which
 *   computes with at least the precision asked for (fp32 for SGEMM), so
 *   cuBLAS does not round the inputs to TF32 for the tensor cores (it would
 *   with CUBLAS_TF32_TENSOR_OP_MATH): the comparison with the lab's fp32
 *   kernels stays fair, and the results stay within the lab's tolerance.
 *   (CUBLAS_PEDANTIC_MATH would also forbid it, and may in addition leave
 *   out some fast fp32 algorithms: the default mode is the fair yardstick.)
 * - Row-major through a column-major library: cuBLAS reads an n x n array
 *   stored by rows as the transpose of the matrix. Asking it for
 *   C = B * A on those arrays (with A = p, B = q) computes
 *   (q^T p^T) = (p q)^T in column-major order, which is p q stored by rows:
 *   exactly r. No transposition is needed.
 * - The handle is created on the first call and kept in a static for the
 *   life of the process (creating one costs milliseconds and allocates
 *   device memory, which would otherwise be timed with every call). It is
 *   never destroyed: the process's exit releases it.
 * - cuBLAS runs on the default stream, as the lab's kernels do; hpclab
 *   waits for the device after the call, so the time includes it all.
 *
 ****************************************************************************/
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>
#include "hpc.h"
#include "matmul.h"

static void cublas_check( cublasStatus_t status, const char *what )
{
    if (status != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cuBLAS error in %s: %s\n", what, cublasGetStatusString(status));
        exit(HPC_CUDA_ERROR_EXIT);
    }
}

static cublasHandle_t handle(void)
{
    static cublasHandle_t h = NULL;
    if (h == NULL) {
        cublas_check(cublasCreate(&h), "cublasCreate");
        cublas_check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    }
    return h;
}

static void sgemm( const float *d_p, const float *d_q, float *d_r, int n )
{
    const float one = 1.0f, zero = 0.0f;
    /* Column-major: r^T = q^T p^T, i.e. C = B A with the arrays as given. */
    cublas_check(cublasSgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n,
                             &one, d_q, n, d_p, n, &zero, d_r, n),
                 "cublasSgemm");
    cudaCheckError();
}

void matmul_naive( const float *d_p, const float *d_q, float *d_r, int n )
{
    sgemm(d_p, d_q, d_r, n);
}

void matmul_tiled( const float *d_p, const float *d_q, float *d_r, int n )
{
    sgemm(d_p, d_q, d_r, n);
}
