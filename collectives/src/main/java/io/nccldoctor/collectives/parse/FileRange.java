package io.nccldoctor.collectives.parse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A range of a file, from a line start to a line start (or the file's end), read in order by the worker that owns it,
 * whose unread tail a worker that has finished its own range may take ({@link #split}). A log's lines cost unequal
 * time (an initialisation several times what a per-operation line costs, and the first sighting of each process more
 * again), so ranges of equal bytes end at unequal times; a split tail evens them out. Each read reserves its bytes
 * before reading them, so a split never takes a byte the owner has been given.
 */
final class FileRange implements LogReader.Source {

    private final FileChannel ch;
    /** Where the range starts: ranges are joined in this order. */
    final long start;
    /** The next byte the owner reads, and the range's end: both change under this object's lock. */
    private long pos;
    private long limit;
    /** What the range's lines said, once read. */
    LogBuilder builder;

    FileRange(FileChannel ch, long start, long limit) {
        this.ch = ch;
        this.start = start;
        this.pos = start;
        this.limit = limit;
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
        long at;
        int n;
        synchronized (this) {
            if (pos >= limit) {
                return -1;
            }
            n = (int) Math.min(buf.remaining(), limit - pos);
            at = pos;
            pos += n;
        }
        buf.limit(buf.position() + n);
        int read = 0;
        while (read < n) {
            int r = ch.read(buf, at + read);
            if (r < 0) {
                synchronized (this) { // the file ended before the range did (it shrank while read)
                    pos = Math.min(pos, at + read);
                    limit = Math.min(limit, at + read);
                }
                break;
            }
            read += r;
        }
        return read == 0 ? -1 : read;
    }

    /** The bytes not yet given to the owner. */
    synchronized long unread() {
        return limit - pos;
    }

    /**
     * The second half of what is left unread, from the first line start at or after its middle, as a range of its own
     * (this range then ends there); null when fewer than {@code minBytes} are left, or when the owner has read past that
     * line start while it was looked for.
     */
    FileRange split(long minBytes) throws IOException {
        long from;
        long to;
        synchronized (this) {
            from = pos;
            to = limit;
        }
        if (to - from < Math.max(2, minBytes)) {
            return null;
        }
        long cut = LogReader.lineStartAfter(ch, from + (to - from) / 2);
        synchronized (this) {
            if (cut < pos || cut >= limit) {
                return null;
            }
            FileRange tail = new FileRange(ch, cut, limit);
            limit = cut;
            return tail;
        }
    }
}
