// expect: compile_error
// why: calls cuBLAS, which hpclab does not link into a student's program: undefined references at link time
#include "hpc.h"
#include "matmul.h"
#include <cublas_v2.h>

static void gemm(const float *d_p, const float *d_q, float *d_r, int n)
{
    cublasHandle_t h;
    const float one = 1.0f, zero = 0.0f;
    cublasCreate(&h);
    /* r = p q in row-major is r^T = q^T p^T in cuBLAS's column-major */
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, d_q, n, d_p, n, &zero, d_r, n);
    cublasDestroy(h);
}

void matmul_naive(const float *d_p, const float *d_q, float *d_r, int n) { gemm(d_p, d_q, d_r, n); }
void matmul_tiled(const float *d_p, const float *d_q, float *d_r, int n) { gemm(d_p, d_q, d_r, n); }
