/****************************************************************************
 *
 * work.h - The kernel that program.cu times (given: do not edit)
 *
 * Each of WORK_N threads runs WORK_STEPS steps of v = v * A + B on its own
 * element: 2 floating-point operations per step, so one launch does
 * WORK_FLOPS operations, whatever GPU runs it. The steps of one thread
 * depend on each other, and the compiler may not merge them (that would
 * change the rounding), so the kernel's time is that of its arithmetic:
 * milliseconds on a current GPU, thousands of times a launch's cost.
 *
 * hpclab builds its own timing program from this same file, to measure
 * the kernel on the GPU your program runs on: your times are compared
 * with that measurement.
 *
 ****************************************************************************/
#ifndef WORK_H
#define WORK_H

#define WORK_N (1 << 24)       /* threads, one element each */
#define WORK_STEPS 16384       /* steps per thread */
#define WORK_FLOPS (2.0 * WORK_N * WORK_STEPS)
#define BLKDIM 1024

/* One thread per element, one dependent chain of WORK_STEPS fused
   multiply-adds per thread: the loads and the store are one float each,
   so memory is no matter, and with 2^24 threads every multiprocessor has
   enough warps to hide the FMA's latency. Its time is the GPU's FP32 rate. */
__global__ void work( float *x, int n, int steps )
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i < n) {
        float v = x[i];
        for (int s = 0; s < steps; s++) {
            v = v * 0.999f + 0.001f;
        }
        x[i] = v;
    }
}

#endif
