/* A dependency that is deleted after linking: a library needing it fails to load with the loader's reason. */
int standin_absent_marker(void) {
    return 1;
}
