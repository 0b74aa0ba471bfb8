/****************************************************************************
 *
 * aos_soa.h - The functions hpclab calls in this lab, and their contracts
 *
 * Do not edit: hpclab compiles your aos_soa.cu against this file.
 *
 ****************************************************************************/
#ifndef AOS_SOA_H
#define AOS_SOA_H

/* The time step of the update: x moves by vx * DT. */
#define DT 0.01f

/* A particle: eight floats, 32 bytes. The update reads two of them (x and
   vx); the other six travel with them in an array of structures. */
typedef struct {
    float x, y, z;       /* position */
    float vx, vy, vz;    /* velocity */
    float mass, charge;
} particle_t;

/* The same particles as a structure of arrays: eight DEVICE pointers, each
   to n floats; field f of particle i is in the array of field f, at [i].
   Passed to the functions, and on to a kernel, by value. */
typedef struct {
    float *x, *y, *z;
    float *vx, *vy, *vz;
    float *mass, *charge;
} particles_soa_t;

/*
 * move_aos(d_p, d_xnew, n): for 0 <= i < n,
 *
 *     d_xnew[i] = d_p[i].x + d_p[i].vx * DT
 *
 * - d_p is a DEVICE pointer to n particles (an array of structures). Read
 *   it, never write it.
 * - d_xnew is a DEVICE pointer to n floats: write every one of them.
 */
void move_aos(const particle_t *d_p, float *d_xnew, int n);

/*
 * move_soa(p, d_xnew, n): the same update over the same particles, laid
 * out as a structure of arrays:
 *
 *     d_xnew[i] = p.x[i] + p.vx[i] * DT
 *
 * - p holds eight DEVICE pointers, one per field, each to n floats. Read
 *   them, never write them.
 * - d_xnew is a DEVICE pointer to n floats: write every one of them.
 */
void move_soa(particles_soa_t p, float *d_xnew, int n);

/*
 * aos_to_soa(d_p, soa, n): copies every field of every particle from the
 * array of structures into the structure of arrays:
 *
 *     soa.x[i] = d_p[i].x, soa.y[i] = d_p[i].y, ..., soa.charge[i] = d_p[i].charge
 *
 * - d_p is a DEVICE pointer to n particles. Read it, never write it.
 * - soa holds eight DEVICE pointers, each to n floats: write every element
 *   of every one.
 */
void aos_to_soa(const particle_t *d_p, particles_soa_t soa, int n);

/*
 * For all three: n is any value >= 1 (not only a multiple of the block
 * size). hpclab allocated every array with cudaMalloc() and copied the
 * inputs in: do not allocate or copy. Launch the kernel and return: hpclab
 * waits for the GPU and times the call (cudaCheckError() after the launch
 * is welcome: it waits too).
 */

#endif
