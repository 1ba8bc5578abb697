#ifndef FORMD_CZLIB_SHIM_H
#define FORMD_CZLIB_SHIM_H
#include <zlib.h>
// FormdHTTP also needs a few Linux calls the Glibc module does not export (epoll, and the
// GNU-only accept4/pipe2). Kept here to avoid adding a C target to Package.swift.
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>
static inline int formd_accept4(int fd, int flags) { return (int)syscall(SYS_accept4, fd, 0, 0, flags); }
static inline int formd_pipe2(int fds[2], int flags) { return (int)syscall(SYS_pipe2, fds, flags); }
#endif
#endif
