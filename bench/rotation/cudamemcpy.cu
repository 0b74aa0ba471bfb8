// hpclab-bench: kind=limit tasks=naive,tiled title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - rotation's ceiling: the image copied instead of rotated
 *
 * Not a version of the lab: its output is the input, not rotated, and
 * hpclab bench does not check it. It is the speed of light of the task:
 * a rotation reads every pixel once and writes it once, 8 bytes a pixel,
 * exactly what a copy of d_in into d_out moves, with both sides
 * coalesced and nothing else to do. Timed at every size of the sweep,
 * like the variants, so that a small image is compared with a copy of
 * its own size.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "rotation.h"

/* 8 * width * height bytes moved: 4 read, 4 written per pixel. */
static void copy_image( const float *d_in, float *d_out, int width, int height )
{
    const size_t bytes = (size_t)width * height * sizeof(float);

    cudaSafeCall( cudaMemcpy(d_out, d_in, bytes, cudaMemcpyDeviceToDevice) );
}

void rotate_naive( const float *d_in, float *d_out, int width, int height )
{
    copy_image(d_in, d_out, width, height);
}

void rotate_tiled( const float *d_in, float *d_out, int width, int height )
{
    copy_image(d_in, d_out, width, height);
}
