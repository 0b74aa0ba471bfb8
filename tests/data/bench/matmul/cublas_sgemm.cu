// hpclab-bench: kind=library tasks=naive,tiled title="cuBLAS SGEMM (fp32, no TF32)" link=cublas
//
// The library's matrix product, the ceiling the course's kernels are
// compared with. cuBLAS stores matrices by columns: the row-major product
// r = p q is, read by columns, r^T = q^T p^T, so q comes first.
#include "hpc.h"
#include "matmul.h"

#include <cstdio>
#include <cstdlib>
#include <cublas_v2.h>

static cublasHandle_t handle()
{
    // Made by the first (warm-up) call, reused by the timed ones.
    static cublasHandle_t h = nullptr;
    if (!h) {
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "cublasCreate failed\n");
            exit(99);
        }
        // Plain fp32 arithmetic (the default, said out loud): TF32 tensor
        // cores would be faster and miss the lab's tolerance.
        cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
    }
    return h;
}

static void sgemm(const float *d_p, const float *d_q, float *d_r, int n)
{
    const float one = 1.0f, zero = 0.0f;
    if (cublasSgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, d_q, n, d_p, n, &zero, d_r, n) !=
        CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasSgemm failed\n");
        exit(99);
    }
}

void matmul_naive(const float *d_p, const float *d_q, float *d_r, int n) { sgemm(d_p, d_q, d_r, n); }

void matmul_tiled(const float *d_p, const float *d_q, float *d_r, int n) { sgemm(d_p, d_q, d_r, n); }
