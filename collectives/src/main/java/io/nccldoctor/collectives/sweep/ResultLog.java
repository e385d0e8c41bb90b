package io.nccldoctor.collectives.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.read.Decoded;
import io.nccldoctor.core.read.Inputs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sweep's JSONL result file: one {@link SweepRecord} per line, each appended and forced to disk before the next
 * point starts, so a killed orchestrator loses nothing it recorded. A torn last line (the process died mid-write) is
 * left out on reading, with a note, and overwritten by the next append; a last line that is a whole record without its
 * newline is kept.
 */
public final class ResultLog implements AutoCloseable {

    private static final ObjectMapper LINE = Json.mapper().copy().disable(SerializationFeature.INDENT_OUTPUT);

    private final FileChannel channel;

    private ResultLog(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * Opens for appending. A last line without its newline is kept (with the newline added) when it is a whole record:
     * a file someone edited or copied without the final newline. Otherwise it is torn (the process died mid-write) and
     * is cut off, so that the next record starts on a line of its own.
     */
    public static ResultLog append(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
        long size = ch.size();
        long keep = size;
        if (size > 0) {
            ByteBuffer one = ByteBuffer.allocate(1);
            for (keep = size; keep > 0; keep--) {
                one.clear();
                ch.read(one, keep - 1);
                if (one.get(0) == '\n') {
                    break;
                }
            }
        }
        if (keep < size && isRecord(tail(ch, keep, size), file)) {
            ch.position(size);
            ch.write(ByteBuffer.wrap(new byte[] {'\n'}));
            return new ResultLog(ch);
        }
        ch.truncate(keep);
        ch.position(keep);
        return new ResultLog(ch);
    }

    private static String tail(FileChannel ch, long from, long to) throws IOException {
        if (to - from > Inputs.MAX_BYTES) {
            return "";
        }
        ByteBuffer b = ByteBuffer.allocate((int) (to - from));
        while (b.hasRemaining() && ch.read(b, from + b.position()) >= 0) {
            // read on
        }
        return Inputs.decode(b.array(), "").text();
    }

    private static boolean isRecord(String line, Path file) {
        try {
            record(line, file + ": last line");
            return true;
        } catch (InputException e) {
            return false;
        }
    }

    public synchronized void write(SweepRecord r) throws IOException {
        byte[] line = (LINE.writeValueAsString(r) + "\n").getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.wrap(line);
        while (b.hasRemaining()) {
            channel.write(b);
        }
        channel.force(false);
    }

    /**
     * What a result file holds: every record, and what was not read, each in one line naming the file (a torn last line,
     * bytes that are not UTF-8).
     */
    public record Contents(List<SweepRecord> records, List<String> notes) {
    }

    /** Every record of the file; a line that is not one (edited, damaged) is an error naming it. */
    public static List<SweepRecord> read(Path file) {
        return contents(file).records();
    }

    /**
     * Every record of the file, and what was not read. A last line without a newline is a record when it reads as one
     * (kept), else a line torn by a process that died mid-write (left out, and said in the notes); any other line that
     * is not a record is an {@link InputException} naming FILE:LINE.
     */
    public static Contents contents(Path file) {
        return contents(Inputs.text(file));
    }

    /** The same, for a file already read (its source names it in every message). */
    public static Contents contents(Decoded d) {
        String file = d.source();
        String[] lines = d.text().split("\n", -1); // the last element is empty when the file ends with a newline
        List<SweepRecord> out = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        d.note().ifPresent(notes::add);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.isBlank()) {
                continue;
            }
            String where = file + ":" + (i + 1);
            if (i == lines.length - 1) { // no newline after it
                try {
                    out.add(record(l, where));
                } catch (InputException torn) {
                    notes.add(where + ": the last line has no newline and is not a whole record (" + l.length()
                            + " characters, cut when the sweep was stopped while writing it): not read");
                }
                continue;
            }
            out.add(record(l, where));
        }
        return new Contents(out, notes);
    }

    /** One line as a record, with the fields every reader of results relies on. */
    static SweepRecord record(String line, String where) {
        JsonNode tree = Json.tree(new Decoded(line, where, 0));
        if (!tree.isObject()) {
            throw new InputException(where + ": " + (tree.isNull() ? "null" : "a JSON " + tree.getNodeType().name().toLowerCase(Locale.ROOT))
                    + ", not a sweep result record (one JSON object per line, as `nccl-doctor sweep` writes them)");
        }
        SweepRecord r = Json.convert(tree, SweepRecord.class, where);
        String missing = r.type() == null || !(r.isPoint() || r.type().equals("failure")) ? "type (point or failure)"
                : r.child() == null ? "child" : r.collective() == null ? "collective" : r.env() == null ? "env"
                : r.isPoint() && r.rows() == null ? "rows" : r.rows() != null && r.rows().contains(null) ? "rows without null entries"
                : r.transports() != null && r.transports().containsValue(null) ? "transports without null counts"
                : r.algorithms() != null && r.algorithms().containsValue(null) ? "algorithms without null counts" : null;
        if (missing != null) {
            throw new InputException(where + ": a sweep result record needs " + missing + "; the line is not as `nccl-doctor sweep` writes it");
        }
        return r;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
