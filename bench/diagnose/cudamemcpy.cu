// hpclab-bench: kind=limit tasks=transpose,scale_rows title="cudaMemcpy D2D of the same bytes"
/****************************************************************************
 *
 * cudamemcpy.cu - diagnose's ceiling: the matrix copied instead of
 *                 transposed or scaled
 *
 * Not a version of the lab: its output is the input, and hpclab bench
 * does not check it. It is the speed of light of both tasks: each reads
 * every element once and writes it once, 8 bytes an element (scale_rows
 * reads rows factors more, 4 bytes a row), what a copy of d_in into
 * d_out moves, coalesced and with nothing else to do.
 *
 ****************************************************************************/
#include <stddef.h>
#include "hpc.h"
#include "diagnose.h"

static void copy_matrix( const float *d_in, float *d_out, int rows, int cols )
{
    const size_t bytes = (size_t)rows * cols * sizeof(float);

    cudaSafeCall( cudaMemcpy(d_out, d_in, bytes, cudaMemcpyDeviceToDevice) );
}

void transpose( const float *d_in, float *d_out, int rows, int cols )
{
    copy_matrix(d_in, d_out, rows, cols);
}

void scale_rows( const float *d_in, const float *d_f, float *d_out, int rows, int cols )
{
    (void)d_f;
    copy_matrix(d_in, d_out, rows, cols);
}
