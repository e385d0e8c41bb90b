/*
 * Shared by the host-memory stand-ins for libcuda.so.1, libnccl.so.2, libnvidia-ml.so.1 and libibverbs.so.1.
 * Test doubles only: built by the test phase into target/, never shipped. README.md beside this file says what
 * they model and which environment variables switch their failure modes on.
 */
#ifndef STANDIN_H
#define STANDIN_H

#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One line per event to the file named by STANDIN_TRACE (appended: several processes may share it). */
static inline void standin_trace(const char *fmt, ...) {
    const char *path = getenv("STANDIN_TRACE");
    if (path == NULL || path[0] == '\0') {
        return;
    }
    char line[512];
    int n = snprintf(line, sizeof line, "%d ", (int)getpid());
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2) {
        n = (int)sizeof line - 2;
    }
    line[n++] = '\n';
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t ignored = write(fd, line, (size_t)n);
        (void)ignored;
        close(fd);
    }
}

/*
 * STANDIN_<LIB>_FAIL=function:code[:which]: the named entry point returns code. which is the 1-based call number
 * for libcuda (every call from the third on, with "3+"), the global rank for libnccl; absent means every call.
 * Read at each call, on the calling thread.
 */
static inline int standin_fail_spec(const char *var, const char *function, int *code, long *which, int *from) {
    const char *spec = getenv(var);
    if (spec == NULL) {
        return 0;
    }
    size_t len = strlen(function);
    if (strncmp(spec, function, len) != 0 || spec[len] != ':') {
        return 0;
    }
    char *end;
    *code = (int)strtol(spec + len + 1, &end, 10);
    *which = -1;
    *from = 0;
    if (*end == ':') {
        *which = strtol(end + 1, &end, 10);
        *from = *end == '+';
    }
    return 1;
}

/* Internal entry points of the libcuda stand-in that the libnccl stand-in calls (it runs on "the GPU"'s streams). */
int standin_stream_enqueue(void *stream, void (*fn)(void *), void *arg);
int standin_current_device(void);
/* The calling stream worker's modelled clock moves on by ns: events recorded on that stream read it from then on. */
void standin_stream_model(int64_t ns);

#endif
