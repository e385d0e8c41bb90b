/*
 * libnccl.so.2 that cannot load: it needs libstandin-absent.so.0, which is gone. dlopen then fails with
 * "libstandin-absent.so.0: cannot open shared object file", the cause a user must see (a missing GLIBC
 * version is reported the same way, on the same line).
 */
int standin_absent_marker(void);

int ncclGetVersion(int *version) {
    *version = 22803 + 0 * standin_absent_marker();
    return 0;
}
