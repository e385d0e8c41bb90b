package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.InputException;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * How a log's bytes reach the parser: a file in 256 KiB blocks of whole lines (one buffer per range, so memory stays
 * flat), cut at line starts into one range per core (at most four) read in parallel and joined in file order, a worker
 * that is done taking half of another's unread tail ({@link FileRange}); a
 * stream (standard input, a .gz file) in the same blocks, in one pass; or lines from a reader. The first 256 KiB
 * decide whether the lines carry NCCL's prefix: when none of them says "NCCL INFO" or "NCCL WARN" and one is an NCCL
 * message in NCCL's wording, the log is an excerpt pasted without the prefix and every line is read by its wording
 * ({@link MessageKinds#bare}), in one pass. In a log with the prefix, the lines that end within the same bytes are
 * looked at for RCCL's version banner, which holds no "NCCL" for the block scanner to find ({@link BlockScanner#bannerBefore}).
 */
final class LogReader {

    private LogReader() {
    }

    /**
     * The bytes read at once, per range: small enough that a block, and the copy of its words, stay in the core's L2
     * cache between the read and the scan.
     */
    static final int SEGMENT = 256 << 10;

    /** The bytes that decide whether a log carries NCCL's prefix. */
    static final int SNIFF = 256 << 10;

    /**
     * The lines that end within {@code head[0, n)} (the last one without a newline only when the log ends there, {@code
     * whole}): none says "NCCL INFO" or "NCCL WARN", and one is an NCCL message without the prefix.
     */
    static boolean bare(byte[] head, int n, boolean whole) {
        boolean found = false;
        int start = 0;
        for (int i = 0; i <= n; i++) {
            if (i == n ? !whole || start == n : head[i] != '\n') {
                continue;
            }
            String line = new String(head, start, i - start, StandardCharsets.UTF_8);
            if (line.contains("NCCL INFO") || line.contains("NCCL WARN")) {
                return false;
            }
            found |= MessageKinds.bare(line) >= 0;
            start = i + 1;
        }
        return found;
    }

    /** A file as the parser reads it: in parallel ranges, or decompressed in one pass when its name ends in .gz. */
    static LogBuilder read(Path file) {
        if (!file.getFileName().toString().endsWith(".gz")) {
            return read(file, Math.min(4, Runtime.getRuntime().availableProcessors()), 64L << 20, SEGMENT);
        }
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file), 64 << 10)) {
            return stream(in, SEGMENT);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** A stream in one pass, its first {@link #SNIFF} bytes looked at first. */
    static LogBuilder stream(InputStream in, int segment) throws IOException {
        BufferedInputStream b = new BufferedInputStream(in, SNIFF + 1);
        b.mark(SNIFF + 1);
        byte[] head = b.readNBytes(SNIFF + 1);
        b.reset();
        boolean bare = bare(head, Math.min(head.length, SNIFF), head.length <= SNIFF);
        return blocks(Channels.newChannel(b)::read, 0, segment, bare);
    }

    /**
     * @param threads       the most ranges read at once
     * @param minRangeBytes below this many bytes per range, fewer ranges are used; a worker that has finished its range
     *                      takes half of another's unread tail while a quarter of this many bytes are left in it (a
     *                      range costs a few milliseconds of its own: its processes are seen for the first time)
     * @param segment       the bytes read at once per range
     */
    static LogBuilder read(Path file, int threads, long minRangeBytes, int segment) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            int parts = (int) Math.max(1, Math.min(threads, size / Math.max(1, minRangeBytes)));
            long[] cuts = new long[parts - 1];
            for (int k = 1; k < parts; k++) {
                cuts[k - 1] = size * k / parts;
            }
            return ranges(ch, cuts, segment, Math.max(1, minRangeBytes / 4));
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InputException(file + ": interrupted while reading", e);
        }
    }

    /**
     * The same, cut at the first line start at or after each of {@code cuts} (ascending, from 1), no tail taken: tests cut
     * anywhere.
     */
    static LogBuilder read(Path file, long[] cuts, int segment) throws IOException, InterruptedException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return ranges(ch, cuts, segment, Long.MAX_VALUE);
        }
    }

    /**
     * A file in one range per cut and one more, each read by a worker of its own, joined in file order; a worker that is
     * done takes half of the largest unread tail left in another range while one of at least {@code minSteal} bytes is
     * left ({@link FileRange#split}). In one range when its first {@link #SNIFF} bytes show a log without NCCL's prefix
     * (its dump lines are told only after their header).
     */
    private static LogBuilder ranges(FileChannel ch, long[] cuts, int segment, long minSteal) throws IOException, InterruptedException {
        long size = ch.size();
        ByteBuffer head = ByteBuffer.allocate((int) Math.min(size, SNIFF));
        while (head.hasRemaining() && ch.read(head, head.position()) > 0) {
            // reads the first SNIFF bytes
        }
        boolean bare = bare(head.array(), head.position(), size <= SNIFF);
        if (bare || cuts.length == 0) {
            return blocks(new FileRange(ch, 0, size), 0, segment, bare);
        }
        int parts = cuts.length + 1;
        long[] starts = new long[parts + 1];
        starts[parts] = size;
        for (int k = 1; k < parts; k++) {
            starts[k] = Math.max(starts[k - 1], lineStartAfter(ch, cuts[k - 1]));
        }
        List<FileRange> ranges = new ArrayList<>();
        for (int k = 0; k < parts; k++) {
            ranges.add(new FileRange(ch, starts[k], starts[k + 1]));
        }
        IOException[] failed = new IOException[1];
        Thread[] workers = new Thread[parts];
        for (int k = 0; k < parts; k++) {
            FileRange first = ranges.get(k);
            workers[k] = new Thread(() -> {
                try {
                    for (FileRange r = first; r != null; r = takeTail(ranges, minSteal)) {
                        r.builder = blocks(r, r.start, segment, false);
                        r.builder.settle();
                    }
                } catch (IOException e) {
                    failed[0] = e;
                }
            }, "nccl-log-" + k);
            workers[k].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        return join(ranges);
    }

    /**
     * Half the unread tail of the range that has the most left, as a new range (added to {@code ranges}); null when none
     * has {@code minSteal} bytes left.
     */
    private static FileRange takeTail(List<FileRange> ranges, long minSteal) throws IOException {
        synchronized (ranges) {
            FileRange most = null;
            long left = -1;
            for (FileRange r : ranges) {
                long unread = r.unread();
                if (unread > left) {
                    most = r;
                    left = unread;
                }
            }
            FileRange tail = most == null ? null : most.split(minSteal);
            if (tail != null) {
                ranges.add(tail);
            }
            return tail;
        }
    }

    /** The ranges' builders joined in file order, into the first range's (each range settled by its worker). */
    static LogBuilder join(List<FileRange> ranges) {
        List<FileRange> ordered = new ArrayList<>(ranges);
        ordered.sort((a, b) -> Long.compare(a.start, b.start)); // not Comparator.comparingLong: TuningCounts#order
        LogBuilder first = ordered.get(0).builder;
        for (int k = 1; k < ordered.size(); k++) {
            FileRange r = ordered.get(k);
            for (LogBuilder.Banner b : r.builder.banners) {
                first.banners.add(new LogBuilder.Banner(r.start + b.end(), b.line()));
            }
            first.absorb(r.builder);
        }
        return first;
    }

    /** The first line start at or after {@code p}: just past the first newline at or after p - 1. */
    static long lineStartAfter(FileChannel ch, long p) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(64 << 10);
        for (long at = p - 1; ; at += b.limit()) {
            b.clear();
            int n = ch.read(b, at);
            if (n <= 0) {
                return ch.size();
            }
            for (int i = 0; i < n; i++) {
                if (b.get(i) == '\n') {
                    return at + i + 1;
                }
            }
            b.limit(n);
        }
    }

    /** Where a block's bytes come from: a file range read at positions, or a stream read in order. */
    interface Source {

        /** Reads into {@code buf}, from its position up to its limit (which it may lower); -1 at the end. */
        int read(ByteBuffer buf) throws IOException;
    }

    /**
     * The bytes of a source read into one buffer of {@code segment} bytes at a time, each time up to its last newline
     * (a line longer than the buffer is judged by its first part, and its tail counts as a line of its own). In a log with
     * NCCL's prefix, the lines that start within the log's first {@link #SNIFF} bytes are looked at for RCCL's banner
     * as they are scanned ({@link BlockScanner#bannerBefore}; the builder keeps only those that end there): a source that
     * starts {@code from} bytes into the log, a range of a large file, looks only at what lies before that mark, and one
     * that starts past it at nothing. {@link #join} places a range's finds in the file.
     */
    static LogBuilder blocks(Source source, long from, int segment, boolean bare) throws IOException {
        LogBuilder b = new LogBuilder(true, bare);
        long offset = 0; // of the block in the source
        ByteBuffer buf = ByteBuffer.allocateDirect(segment).order(ByteOrder.LITTLE_ENDIAN);
        long[] words = new long[(segment >>> 3) + 3];
        while (true) {
            boolean last = fill(source, buf);
            int end = buf.position();
            int cut = end;
            if (!last) {
                while (cut > 0 && buf.get(cut - 1) != '\n') {
                    cut--;
                }
                if (cut == 0 && end == buf.capacity()) {
                    cut = end; // a line longer than the buffer
                }
            }
            // The words are scanned from a long[]: plain array loads, which even the interpreter and the first JIT
            // tier run fast, where each ByteBuffer.getLong is a chain of calls until the last tier has inlined it.
            int whole = cut >>> 3;
            buf.duplicate().position(0).limit(whole << 3).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words, 0, whole);
            if ((cut & 7) != 0) {
                long tail = 0;
                for (int k = cut - 1; k >= whole << 3; k--) {
                    tail = tail << 8 | (buf.get(k) & 0xFF);
                }
                words[whole] = tail;
            }
            b.blockOffset = offset;
            b.bannerBefore = bare ? 0 : (int) Math.max(0, Math.min(cut, SNIFF - from - offset));
            offset += cut;
            int count = (cut + 7) >>> 3;
            words[count] = 0;
            words[count + 1] = 0;
            b.acceptBlock(buf, words, cut);
            if (last) {
                return b;
            }
            buf.limit(end).position(cut);
            buf.compact(); // the carried part moves to the front; position = its length
        }
    }

    /** Reads until the buffer is full (false: more may follow) or the source ends (true). */
    private static boolean fill(Source source, ByteBuffer buf) throws IOException {
        buf.limit(buf.capacity());
        while (buf.position() < buf.limit()) {
            if (source.read(buf) < 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Lines from a reader, each handed to the message half whole: the reference the block scanner is tested against.
     * The lines within the first {@link #SNIFF} bytes (as UTF-8, each with its newline) decide as {@link #bare} does.
     */
    static LogBuilder lines(BufferedReader in) throws IOException {
        List<String> head = new ArrayList<>();
        long bytes = 0;
        boolean prefixed = false;
        boolean wording = false;
        String line = in.readLine();
        for (; line != null; line = in.readLine()) {
            head.add(line);
            bytes += line.getBytes(StandardCharsets.UTF_8).length + 1;
            if (bytes > SNIFF) {
                break;
            }
            prefixed |= line.contains("NCCL INFO") || line.contains("NCCL WARN");
            wording |= MessageKinds.bare(line) >= 0;
        }
        LogBuilder b = new LogBuilder(false, !prefixed && wording);
        for (String h : head) {
            b.lines++;
            b.acceptLine(h);
        }
        if (!b.bare) { // where each ends, as the block scanner notes it
            long within = 0;
            for (String h : head) {
                within += h.getBytes(StandardCharsets.UTF_8).length + 1;
                if (h.contains("RCCL version")) {
                    b.banners.add(new LogBuilder.Banner(within - 1, h));
                }
            }
        }
        for (line = line == null ? null : in.readLine(); line != null; line = in.readLine()) {
            b.lines++;
            b.acceptLine(line);
        }
        return b;
    }
}
