#ifndef FORMD_CLINUX_H
#define FORMD_CLINUX_H
// The Linux calls FormdHTTP's epoll event queue needs that the Glibc module does not export:
// epoll itself and the GNU-only accept4/pipe2. Package.swift includes this target on Linux only.
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>
static inline int formd_accept4(int fd, int flags) { return (int)syscall(SYS_accept4, fd, 0, 0, flags); }
static inline int formd_pipe2(int fds[2], int flags) { return (int)syscall(SYS_pipe2, fds, flags); }
#endif
#endif
