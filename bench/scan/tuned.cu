// hpclab-bench: kind=reference tasks=blocks,scan title="Tuned reference: warp-shuffle tile scans, and a single pass with decoupled look-back"
// The speed baseline that labs/scan/lab.json names ("speed_baseline": "tuned"): the thresholds
// are measured against it. Both tasks scan tiles with int4 loads and warp shuffles (blocks: of
// SEGMENT ints); scan does the whole array in one pass over tiles of 8192, each finding its offset
// from the totals its predecessors publish, a warp at a time (Merrill and Garland's decoupled
// look-back, as CUB's DeviceScan).
/****************************************************************************
 *
 * tuned.cu - scan, the tuned reference
 *
 * Check it:  hpclab check scan --file bench/scan/tuned.cu
 * Time it:   hpclab bench scan --variants solution,tuned,cub
 *
 ****************************************************************************/
#include "hpc.h"
#include "scan.h"

#define THREADS 256
#define SEGMENT_ITEMS 4                  /* (a): consecutive elements per thread, one int4: a tile is SEGMENT */
#define PASS_CHUNKS 8                    /* (b): tiles of 8 chunks of SEGMENT, 8192 ints */
#define PASS_TILE (PASS_CHUNKS * SEGMENT)
#define MAX_TILES (1 << 18)              /* n up to 2^31 */

/* The inclusive sum of v over the lanes of a warp, with register shuffles. */
__device__ __forceinline__ int warp_inclusive( int v )
{
    int offset;
    for (offset = 1; offset < 32; offset *= 2) {
        const int u = __shfl_up_sync(0xffffffff, v, offset);
        if ((int)(threadIdx.x % 32) >= offset) v += u;
    }
    return v;
}

/* This thread's ITEMS consecutive elements from `start`, zeros past n: int4
   loads, marked streaming (__ldcs: each byte is read once, so it need not
   stay in the caches: docs/scan.md measures it). */
template <int ITEMS>
__device__ __forceinline__ void load_items( const int *a, int n, long long start, int v[ITEMS] )
{
    int k;
    if (start + ITEMS <= n) {
        for (k = 0; k < ITEMS; k += 4) {
            const int4 q = __ldcs((const int4 *)(a + start + k));
            v[k] = q.x; v[k + 1] = q.y; v[k + 2] = q.z; v[k + 3] = q.w;
        }
    } else {
        for (k = 0; k < ITEMS; k++) v[k] = (start + k < n ? a[start + k] : 0);
    }
}

template <int ITEMS>
__device__ __forceinline__ void store_items( int *b, int n, long long start, const int v[ITEMS] )
{
    int k;
    if (start + ITEMS <= n) {
        for (k = 0; k < ITEMS; k += 4) __stcs((int4 *)(b + start + k), make_int4(v[k], v[k + 1], v[k + 2], v[k + 3]));
    } else {
        for (k = 0; k < ITEMS; k++) if (start + k < n) b[start + k] = v[k];
    }
}

/*
 * The tile's inclusive scan, in registers: each thread adds up its ITEMS
 * elements in order, the warps scan the threads' totals with 5 shuffles,
 * the first warp scans the 8 warps' totals (shared memory, two barriers),
 * and each thread adds what lies before it. Returns the tile's total.
 */
template <int ITEMS>
__device__ int tile_scan( int v[ITEMS] )
{
    __shared__ int warp_totals[THREADS / 32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int k, mine, incl, before, total;

    for (k = 1; k < ITEMS; k++) v[k] += v[k - 1];
    mine = v[ITEMS - 1];
    incl = warp_inclusive(mine);
    if (lane == 31) warp_totals[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        int x = (lane < THREADS / 32 ? warp_totals[lane] : 0);
        x = warp_inclusive(x);
        if (lane < THREADS / 32) warp_totals[lane] = x;
    }
    __syncthreads();
    before = incl - mine + (warp > 0 ? warp_totals[warp - 1] : 0);
    for (k = 0; k < ITEMS; k++) v[k] += before;
    total = warp_totals[THREADS / 32 - 1];
    __syncthreads();  /* warp_totals is free again */
    return total;
}

/****************************************************************************
 * (a) blocks: one tile per segment
 ****************************************************************************/

/*
 * Why it is fast: one int4 load and one int4 store per thread, the scan in
 * registers with shuffles (no tree in shared memory, no bank conflicts, 2
 * barriers where the lesson's has 21): close to a copy of the bytes.
 */
__global__ void scan_tiles_kernel( const int *a, int n, int *b )
{
    const long long start = (long long)blockIdx.x * SEGMENT + threadIdx.x * SEGMENT_ITEMS;
    int v[SEGMENT_ITEMS];

    load_items<SEGMENT_ITEMS>(a, n, start, v);
    tile_scan<SEGMENT_ITEMS>(v);
    store_items<SEGMENT_ITEMS>(b, n, start, v);
}

void scan_blocks( const int *d_a, int n, int *d_b )
{
    scan_tiles_kernel<<<(n + SEGMENT - 1) / SEGMENT, THREADS>>>(d_a, n, d_b);
    cudaCheckError();
}

/****************************************************************************
 * (b) scan: a single pass, with decoupled look-back
 ****************************************************************************/

/* A tile's word: its state in the high half, a sum in the low half. */
#define NOT_READY 0ull
#define AGGREGATE 1ull  /* the low half is the tile's own total */
#define PREFIX 2ull     /* the low half is the sum of this tile and all before it */

/* The tile counter, then one word per tile: set to zero by each call before
   its kernel, in one memset (the same bytes, made when the program loads). */
__device__ unsigned long long tile_status[1 + MAX_TILES];

__device__ __forceinline__ void publish( unsigned long long *status, int tile, unsigned long long state, int sum )
{
    atomicExch(&status[tile], (state << 32) | (unsigned)sum);
}

/*
 * The sum of everything before `tile`, found by the first warp: its 32
 * lanes read the words of the 32 tiles before, nearest in lane 0, and wait
 * until none is NOT_READY; the nearest that holds a PREFIX ends the search
 * (the lanes up to it add up their sums); if none does, the 32 totals are
 * added and the warp looks 32 tiles further back. Returns it in every lane.
 */
__device__ int look_back( const unsigned long long *status, int tile )
{
    const int lane = threadIdx.x % 32;
    int offset = 0, p = tile - 1;
    for (;;) {
        const int mine = p - lane;
        unsigned long long word;
        unsigned prefixes;
        int sum, o;
        do {
            word = (mine >= 0 ? ((volatile const unsigned long long *)status)[mine] : (PREFIX << 32));
        } while (__any_sync(0xffffffff, (word >> 32) == NOT_READY));
        prefixes = __ballot_sync(0xffffffff, (word >> 32) == PREFIX);
        /* the lanes up to the nearest prefix count; none: all 32 */
        sum = (prefixes == 0 || lane <= __ffs(prefixes) - 1 ? (int)(unsigned)word : 0);
        for (o = 16; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffff, sum, o);
        offset += __shfl_sync(0xffffffff, sum, 0);
        if (prefixes != 0) return offset;
        p -= 32;
    }
}

/*
 * Why it is fast: a[] is read once and b[] written once, as a copy does. A
 * tile takes its number from a counter (so that every tile it waits for has
 * started: no deadlock whatever order the blocks run in), scans itself,
 * publishes its total, and looks back, a warp at a time (look_back), until
 * a tile that knows its whole prefix; then it publishes its own prefix and
 * adds the offset to its elements. Tiles of 8192 ints (eight chunks of
 * SEGMENT, an int4 a thread each, loaded and stored coalesced) keep the
 * look-backs few; a thread issues its eight loads before it scans any chunk,
 * so that they are all in flight at once (one after the other, the tile
 * waited eight times for device memory: docs/scan.md measures both).
 */
__global__ void scan_single_pass_kernel( const int *a, int n, int *b, unsigned long long *status )
{
    __shared__ int tile_s, offset_s;
    unsigned *counter = (unsigned *)&status[-1];
    int v[PASS_CHUNKS][SEGMENT_ITEMS], total = 0, c, k;
    long long start;

    if (threadIdx.x == 0) tile_s = (int)atomicAdd(counter, 1u);
    __syncthreads();
    /* the tile's chunks, each load of a warp 512 consecutive bytes, all
       issued first; then each chunk scanned, its sums carried into the next */
    for (c = 0; c < PASS_CHUNKS; c++) {
        start = (long long)tile_s * PASS_TILE + c * SEGMENT + threadIdx.x * SEGMENT_ITEMS;
        load_items<SEGMENT_ITEMS>(a, n, start, v[c]);
    }
    for (c = 0; c < PASS_CHUNKS; c++) {
        const int chunk = tile_scan<SEGMENT_ITEMS>(v[c]);
        for (k = 0; k < SEGMENT_ITEMS; k++) v[c][k] += total;
        total += chunk;
    }

    if (threadIdx.x < 32) {
        int offset = 0;
        if (tile_s == 0) {
            if (threadIdx.x == 0) publish(status, 0, PREFIX, total);
        } else {
            if (threadIdx.x == 0) publish(status, tile_s, AGGREGATE, total);
            offset = look_back(status, tile_s);
            if (threadIdx.x == 0) publish(status, tile_s, PREFIX, offset + total);
        }
        if (threadIdx.x == 0) offset_s = offset;
    }
    __syncthreads();
    for (c = 0; c < PASS_CHUNKS; c++) {
        start = (long long)tile_s * PASS_TILE + c * SEGMENT + threadIdx.x * SEGMENT_ITEMS;
        for (k = 0; k < SEGMENT_ITEMS; k++) v[c][k] += offset_s;
        store_items<SEGMENT_ITEMS>(b, n, start, v[c]);
    }
}

void scan( const int *d_a, int n, int *d_b )
{
    const int tiles = (n + PASS_TILE - 1) / PASS_TILE;
    unsigned long long *status;

    cudaSafeCall( cudaGetSymbolAddress((void **)&status, tile_status) );
    cudaSafeCall( cudaMemsetAsync(status, 0, (1 + tiles) * sizeof(*status), 0) );
    scan_single_pass_kernel<<<tiles, THREADS>>>(d_a, n, d_b, status + 1);
    cudaCheckError();
}
