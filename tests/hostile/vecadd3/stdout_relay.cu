// expect: too_slow
// why: the scattered, slow kernel of forge_times_at_exit, and at its first call a relay: its standard output becomes a pipe, and a thread copies the pipe to the real output, holding back every line until the next one arrives (and the last one until the program exits), so that each call's start line reaches hpclab just before its end line (an older hpclab timed a call between the two lines it read, and saw almost nothing). hpclab's clock is started and stopped by hpclab itself through the handshake: the relay changes only when lines arrive
// timing: yes
#include "hpc.h"
#include "vecadd3.h"
#include <pthread.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int real_stdout = -1;

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        const ssize_t w = write(fd, p, n);
        if (w <= 0) return;
        p += w;
        n -= (size_t)w;
    }
}

/* Holds the last line read until the next one comes, then lets both go. */
static void *relay(void *arg)
{
    const int from = *(int *)arg;
    static char held[1 << 16];
    size_t held_n = 0;
    char buf[4096];
    ssize_t r;
    while ((r = read(from, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < r; i++) {
            if (held_n < sizeof held) held[held_n++] = buf[i];
            if (buf[i] != '\n') continue;
            /* a whole line is held: release what came before it */
            const char *last = (const char *)memrchr(held, '\n', held_n - 1);
            if (last != NULL) {
                const size_t out = (size_t)(last - held) + 1;
                write_all(real_stdout, held, out);
                memmove(held, held + out, held_n - out);
                held_n -= out;
            }
        }
    }
    write_all(real_stdout, held, held_n);
    return NULL;
}

static pthread_t relay_thread;

/* At exit the pipe's last writer goes, and the relay lets out what it held. */
static void end_relay(void)
{
    fflush(stdout);
    dup2(real_stdout, 1);
    pthread_join(relay_thread, NULL);
}

static void start_relay(void)
{
    static int pipe_fds[2];
    if (real_stdout >= 0 || pipe(pipe_fds) != 0) return;
    real_stdout = dup(1);
    dup2(pipe_fds[1], 1);
    close(pipe_fds[1]);
    pthread_create(&relay_thread, NULL, relay, &pipe_fds[0]);
    atexit(end_relay);
}

__global__ void add(const int *a, const int *b, int *c, int n)
{
    const int i = threadIdx.x + blockIdx.x * blockDim.x;
    if (i >= n) return;
    const int j = (n & (n - 1)) == 0 ? (int)(((unsigned)i * 4097u) & (unsigned)(n - 1)) : i;
    c[j] = a[j] + b[j];
}

void vecadd(const int *d_a, const int *d_b, int *d_c, int n)
{
    start_relay();
    add<<<(n + 1023) / 1024, 1024>>>(d_a, d_b, d_c, n);
    cudaCheckError();
}
