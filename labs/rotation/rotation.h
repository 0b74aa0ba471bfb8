/****************************************************************************
 *
 * rotation.h - The functions hpclab calls in this lab, and their contract
 *
 * Do not edit: hpclab compiles your rotation.cu against this file.
 *
 ****************************************************************************/
#ifndef ROTATION_H
#define ROTATION_H

/*
 * Both functions rotate a grayscale image 90 degrees clockwise.
 *
 * - d_in is the input image: height rows of width pixels, stored by rows,
 *   so pixel (x, y) - column x, row y, row 0 at the top - is
 *   d_in[y * width + x].
 * - d_out is the rotated image: width rows of height pixels. Column x of
 *   the input becomes row x of the output, read from the bottom of the
 *   input up: input pixel (x, y) goes to row x, column height - 1 - y,
 *
 *       d_out[x * height + (height - 1 - y)] = d_in[y * width + x]
 *
 * - d_in and d_out are DEVICE pointers to width * height floats each:
 *   hpclab allocated them with cudaMalloc() and copied the image in. Do
 *   not allocate or copy.
 * - Read d_in, never write it; write every pixel of d_out, and nothing
 *   outside it. The pixels are copied, not computed: the check is exact.
 * - width and height are any values from 1 to 65536, not only multiples
 *   of the block size, and the image need not be square. width * height
 *   can pass 2^31: compute the index of a pixel in a size_t.
 * - Launch the kernel and return. hpclab waits for the GPU and times the
 *   call (cudaCheckError() after the launch is welcome: it waits too).
 */

/* One thread per pixel, in a 2-D grid: reads coalesced, writes scattered. */
void rotate_naive(const float *d_in, float *d_out, int width, int height);

/* A square tile of the image goes through shared memory, so that both the
   reads and the writes are coalesced. */
void rotate_tiled(const float *d_in, float *d_out, int width, int height);

#endif
