/*
 * LD_PRELOAD shim for tests: logs every execve, execv, execvp and posix_spawn of this process and its children to the file named
 * by STANDIN_EXECLOG, one line each: the program, then LC_ALL as the new program sees it. A test reads it to see
 * which commands ran, and whether they ran through nccl-doctor's command runner (which sets LC_ALL=C).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <unistd.h>

#include "standin.h"

static void logexec(const char *path, char *const envp[]) {
    const char *file = getenv("STANDIN_EXECLOG");
    if (file == NULL) {
        return;
    }
    const char *lc = "unset";
    for (int i = 0; envp != NULL && envp[i] != NULL; i++) {
        if (strncmp(envp[i], "LC_ALL=", 7) == 0) {
            lc = envp[i] + 7;
        }
    }
    char line[1024];
    int n = snprintf(line, sizeof line, "%s LC_ALL=%s\n", path, lc);
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t ignored = write(fd, line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1));
        (void)ignored;
        close(fd);
    }
}

int execve(const char *path, char *const argv[], char *const envp[]) {
    logexec(path, envp);
    int (*real)(const char *, char *const[], char *const[]) = dlsym(RTLD_NEXT, "execve");
    return real(path, argv, envp);
}

/* the JDK's child sets environ to the new program's variables, then calls execvp (childproc.c, JDK_execvpe) */
int execvp(const char *file, char *const argv[]) {
    logexec(file, environ);
    int (*real)(const char *, char *const[]) = dlsym(RTLD_NEXT, "execvp");
    return real(file, argv);
}

int execv(const char *path, char *const argv[]) {
    logexec(path, environ);
    int (*real)(const char *, char *const[]) = dlsym(RTLD_NEXT, "execv");
    return real(path, argv);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions, const posix_spawnattr_t *attr,
                char *const argv[], char *const envp[]) {
    logexec(path, envp);
    int (*real)(pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *, char *const[],
                char *const[]) = dlsym(RTLD_NEXT, "posix_spawn");
    return real(pid, path, actions, attr, argv, envp);
}
