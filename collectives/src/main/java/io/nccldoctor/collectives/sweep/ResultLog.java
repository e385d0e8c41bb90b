package io.nccldoctor.collectives.sweep;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The sweep's JSONL result file: one {@link SweepRecord} per line, each appended and forced to disk before the next
 * point starts, so a killed orchestrator loses nothing it recorded. A torn last line (the process died mid-write) is
 * ignored on reading and overwritten by the next append.
 */
public final class ResultLog implements AutoCloseable {

    private static final ObjectMapper LINE = Json.mapper().copy().disable(SerializationFeature.INDENT_OUTPUT);

    private final FileChannel channel;

    private ResultLog(FileChannel channel) {
        this.channel = channel;
    }

    /** Opens for appending, after dropping a torn last line. */
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
        ch.truncate(keep);
        ch.position(keep);
        return new ResultLog(ch);
    }

    public synchronized void write(SweepRecord r) throws IOException {
        byte[] line = (LINE.writeValueAsString(r) + "\n").getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.wrap(line);
        while (b.hasRemaining()) {
            channel.write(b);
        }
        channel.force(false);
    }

    /** Every complete, valid record of the file; a line that is not one (torn, edited) is an error naming it. */
    public static List<SweepRecord> read(Path file) {
        List<SweepRecord> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        boolean endsWithNewline;
        try {
            endsWithNewline = Files.size(file) == 0 || lastByte(file) == '\n';
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank() || (i == lines.size() - 1 && !endsWithNewline)) {
                continue; // a torn last line
            }
            try {
                out.add(Json.mapper().readValue(l, SweepRecord.class));
            } catch (IOException e) {
                throw new InputException(file + ":" + (i + 1) + ": not a sweep result line (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
            }
        }
        return out;
    }

    private static int lastByte(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            ch.read(one, ch.size() - 1);
            return one.get(0);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
