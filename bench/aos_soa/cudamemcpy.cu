// hpclab-bench: kind=limit tasks=aos,soa,convert title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - aos_soa's ceiling: a device-to-device copy of the bytes
 *                 each task moves
 *
 * Not a version of the lab: its outputs are not the update, and hpclab
 * bench does not check them. It is the speed of light of each task, by
 * the bytes its layout makes the GPU move (labs/aos_soa/spec.cpp, work):
 * the AoS update reads every particle's 32-byte sector and writes 4 bytes,
 * the SoA update reads 8 and writes 4, the conversion reads 32 and writes
 * 32. A copy that reads and writes half of those bytes moves as many.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "aos_soa.h"

/* A copy of `bytes` bytes between two device buffers of this file's own,
   allocated by the first call (the warm-up, not timed) and kept for the
   life of the process, so that a timed call is the copy alone. */
static void copy_bytes( size_t bytes )
{
    static void *src = NULL, *dst = NULL;
    static size_t allocated = 0;

    if (bytes == 0) return;
    if (bytes > allocated) {
        cudaSafeCall( cudaFree(src) );
        cudaSafeCall( cudaFree(dst) );
        cudaSafeCall( cudaMalloc(&src, bytes) );
        cudaSafeCall( cudaMalloc(&dst, bytes) );
        allocated = bytes;
    }
    cudaSafeCall( cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice) );
}

void move_aos( const particle_t *d_p, float *d_xnew, int n )
{
    (void)d_p; (void)d_xnew;
    copy_bytes((size_t)n * (sizeof(particle_t) + sizeof(float)) / 2);  /* 36 bytes a particle */
}

void move_soa( particles_soa_t p, float *d_xnew, int n )
{
    (void)p; (void)d_xnew;
    copy_bytes((size_t)n * 3 * sizeof(float) / 2);  /* 12 bytes a particle */
}

void aos_to_soa( const particle_t *d_p, particles_soa_t soa, int n )
{
    (void)d_p; (void)soa;
    copy_bytes((size_t)n * sizeof(particle_t));  /* 64 bytes a particle */
}
