#ifndef RETRYSTORM_SPAWN_SHIM_H
#define RETRYSTORM_SPAWN_SHIM_H

/* What Swift's Glibc module leaves out because it needs _GNU_SOURCE (Linux) or is spelt apart
   (macOS): a pipe opened close-on-exec in one call, so that no child spawned meanwhile by another
   thread inherits it; the spawned child's working directory; the environment, which both the
   Glibc module and this header would otherwise declare; whether a child has ended without reaping
   it (siginfo_t's si_pid sits in a union Swift does not see into); closing every other descriptor
   in the child. ChildProcess uses them. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

static inline int rs_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

static inline int rs_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

static inline char *const *rs_environ(void) {
    extern char **environ;
    return environ;
}

/* The child closes every descriptor from `low` up, save those the file actions dup onto 0–2:
   a descriptor this process holds without close-on-exec (another library's pipe, a run's locked
   owner marker) would otherwise stay open in the child for its whole life. glibc 2.34 and later;
   macOS spells it as an attribute flag (POSIX_SPAWN_CLOEXEC_DEFAULT), set by the caller. */
static inline int rs_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int low) {
#if defined(__linux__)
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
#else
    (void)actions; (void)low;
    return 0;
#endif
}

/* 1 when the child `pid` has ended (it stays a zombie until waitpid reaps it), 0 while it runs. */
static inline int rs_child_ended(pid_t pid) {
    siginfo_t info;
    info.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return 1;
    return info.si_pid != 0;
}

#endif
