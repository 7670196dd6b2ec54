#ifndef RETRYSTORM_SPAWN_SHIM_H
#define RETRYSTORM_SPAWN_SHIM_H

/* What Swift's Glibc module leaves out because it needs _GNU_SOURCE (Linux) or is spelt apart
   (macOS): a pipe opened close-on-exec in one call, so that no child spawned meanwhile by another
   thread inherits it; the spawned child's working directory; closing every other descriptor in the
   child; the environment; whether a child has ended without reaping it (siginfo_t's si_pid sits in
   a union Swift does not see into). ChildProcess uses them.

   Plain prototypes only: _GNU_SOURCE is defined in spawn_shim.c, never here. Defined in a header a
   Swift module imports, it changes glibc's own structs (fd_set's member is named otherwise) and a
   module that also imports Glibc fails to build (an app's package did). */
#include <spawn.h>
#include <sys/types.h>

int rs_pipe_cloexec(int fds[2]);
int rs_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/* The child closes every descriptor from `low` up, save those the file actions dup onto 0–2: a
   descriptor this process holds without close-on-exec (another library's pipe, a run's locked
   owner marker) would otherwise stay open in the child for its whole life. glibc 2.34 and later;
   on macOS a no-op (the caller sets POSIX_SPAWN_CLOEXEC_DEFAULT instead). */
int rs_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int low);

char *const *rs_environ(void);

/* 1 when the child `pid` has ended (it stays a zombie until waitpid reaps it), 0 while it runs. */
int rs_child_ended(pid_t pid);

#endif
