package io.nccldoctor.core.libs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LibrarySearchParseTest {

    @Test
    void ldconfigParserKeepsOnly64BitEntries() {
        var cache = LibrarySearch.parseLdconfig(List.of(
                "1103 libs found in cache `/etc/ld.so.cache'",
                "\tlibnccl.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnccl.so.2",
                "\tlibcuda.so.1 (libc6) => /usr/lib/i386-linux-gnu/libcuda.so.1",
                "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1"));
        assertThat(cache).containsOnlyKeys("libnccl.so.2", "libcuda.so.1");
        assertThat(cache.get("libcuda.so.1")).containsExactly("/usr/lib/x86_64-linux-gnu/libcuda.so.1");
    }

    @Test
    void pathListsKeepAbsoluteFoldersOnceInOrder() {
        assertThat(LibrarySearch.splitPath("/a:/b/:relative::/a")).containsExactly("/a", "/b");
        assertThat(LibrarySearch.splitPath(null)).isEmpty();
    }
}
