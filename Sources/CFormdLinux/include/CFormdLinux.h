#ifndef FORMD_CLINUX_H
#define FORMD_CLINUX_H
// The Linux calls FormdHTTP needs that the Glibc module does not export: epoll itself, the
// GNU-only accept4/pipe2 and the process's CPU affinity. Package.swift includes this target on
// Linux only.
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>
static inline int formd_accept4(int fd, int flags) { return (int)syscall(SYS_accept4, fd, 0, 0, flags); }
static inline int formd_pipe2(int fds[2], int flags) { return (int)syscall(SYS_pipe2, fds, flags); }
// The CPUs this process may run on (its affinity: `taskset`, a container's cpuset), or 0 if the
// kernel does not say. The raw call, because glibc's CPU_COUNT is a macro behind _GNU_SOURCE.
static inline int formd_affinity_cores(void) {
    unsigned long mask[64];  // 4,096 CPUs
    long bytes = syscall(SYS_sched_getaffinity, 0, sizeof mask, mask);
    if (bytes <= 0) return 0;
    int count = 0;
    for (long i = 0; i < bytes / (long)sizeof(unsigned long); i++) count += __builtin_popcountl(mask[i]);
    return count;
}
#endif
#endif
