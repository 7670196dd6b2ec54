// _GNU_SOURCE for pipe2 and posix_spawn_file_actions_addclosefrom_np, here and not in the header
// (see spawn_shim.h).
#define _GNU_SOURCE
#include "spawn_shim.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

int rs_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int rs_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int rs_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int low) {
#if defined(__linux__)
    return posix_spawn_file_actions_addclosefrom_np(actions, low);
#else
    (void)actions;
    (void)low;
    return 0;
#endif
}

char *const *rs_environ(void) {
    extern char **environ;
    return environ;
}

int rs_child_ended(pid_t pid) {
    siginfo_t info;
    info.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return 1;
    return info.si_pid != 0;
}
