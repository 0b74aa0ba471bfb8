// expect: not_on_gpu
// why: both functions copy the matrix to the host, compute there, and copy the result back: the right answers, but no kernel runs in any call (the invariant on_gpu)
#include <stdlib.h>
#include "hpc.h"
#include "diagnose.h"

void transpose( const float *d_in, float *d_out, int rows, int cols )
{
    const size_t n = (size_t)rows * cols;
    float *a = (float *)malloc(n * sizeof(float)), *b = (float *)malloc(n * sizeof(float));
    cudaSafeCall( cudaMemcpy(a, d_in, n * sizeof(float), cudaMemcpyDeviceToHost) );
    for (size_t r = 0; r < (size_t)rows; r++)
        for (size_t c = 0; c < (size_t)cols; c++) b[c * rows + r] = a[r * cols + c];
    cudaSafeCall( cudaMemcpy(d_out, b, n * sizeof(float), cudaMemcpyHostToDevice) );
    free(a); free(b);
}

void scale_rows( const float *d_in, const float *d_f, float *d_out, int rows, int cols )
{
    const size_t n = (size_t)rows * cols;
    float *a = (float *)malloc(n * sizeof(float)), *f = (float *)malloc(rows * sizeof(float));
    cudaSafeCall( cudaMemcpy(a, d_in, n * sizeof(float), cudaMemcpyDeviceToHost) );
    cudaSafeCall( cudaMemcpy(f, d_f, rows * sizeof(float), cudaMemcpyDeviceToHost) );
    for (size_t i = 0; i < n; i++) a[i] *= f[i / cols];
    cudaSafeCall( cudaMemcpy(d_out, a, n * sizeof(float), cudaMemcpyHostToDevice) );
    free(a); free(f);
}
