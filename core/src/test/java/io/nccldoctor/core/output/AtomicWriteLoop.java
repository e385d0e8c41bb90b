package io.nccldoctor.core.output;

import java.nio.file.Path;
import java.util.Arrays;

/** A child process for {@link AtomicFileKillTest}: replaces one file over and over until it is stopped by a signal. */
public final class AtomicWriteLoop {

    static final int SIZE = 8 << 20;

    private AtomicWriteLoop() {
    }

    public static void main(String[] args) throws Exception {
        Path target = Path.of(args[0]);
        for (int i = 1; ; i++) {
            byte[] content = new byte[SIZE];
            Arrays.fill(content, (byte) ('a' + i % 26));
            System.out.println("writing " + i);
            System.out.flush();
            AtomicFile.write(target, content);
        }
    }
}
