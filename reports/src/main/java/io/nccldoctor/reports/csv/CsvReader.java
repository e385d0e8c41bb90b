package io.nccldoctor.reports.csv;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.List;

/**
 * CSV as RFC 4180 writes it (what a spreadsheet or Python's csv module exports): fields separated by commas, a field
 * in double quotes may hold commas, line breaks and quotes (doubled: {@code ""}). Around that, what hand-written
 * tables have: whitespace around a field is dropped, blank lines are skipped, a line whose first character is '#' is a
 * comment, and, where the format allows it, '#' outside quotes ends a line. A byte order mark at the start is ignored.
 * A quote left open, text after a closing quote, or a quote inside an unquoted field is an {@link InputException}
 * naming FILE:LINE.
 */
public final class CsvReader {

    /**
     * One record.
     *
     * @param line   the 1-based line it starts on
     * @param fields its fields, unquoted and stripped
     */
    public record Record(int line, List<String> fields) {

        public Record {
            fields = List.copyOf(fields);
        }
    }

    private final String source;
    private final boolean trailingComments;
    private final List<Record> records = new ArrayList<>();
    private List<String> fields = new ArrayList<>();
    private final StringBuilder field = new StringBuilder();
    private int recordLine;
    private int quoteLine;
    private boolean quoted;
    private boolean closed;

    private CsvReader(String source, boolean trailingComments) {
        this.source = source;
        this.trailingComments = trailingComments;
    }

    /**
     * The records of these lines.
     *
     * @param source           the file name, for messages
     * @param trailingComments whether '#' outside quotes starts a comment anywhere on a line (else only at its start)
     */
    public static List<Record> read(List<String> lines, String source, boolean trailingComments) {
        CsvReader r = new CsvReader(source, trailingComments);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            r.line(i == 0 && line.startsWith("\uFEFF") ? line.substring(1) : line, i + 1);
        }
        if (r.quoted) {
            throw new InputException(source + ":" + r.quoteLine + ": a quoted field opened here is not closed (a field in \"…\" "
                    + "ends with a quote; a quote inside it is written \"\")");
        }
        return r.records;
    }

    private void line(String line, int n) {
        if (!quoted) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                return;
            }
            recordLine = n;
        } else {
            field.append('\n'); // a line break inside quotes is part of the field
        }
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c != '"') {
                    field.append(c);
                } else if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else {
                    quoted = false;
                    closed = true;
                }
            } else if (c == ',') {
                endField();
            } else if (c == '#' && trailingComments) {
                break;
            } else if (closed) {
                if (!Character.isWhitespace(c)) {
                    throw new InputException(source + ":" + n + ": '" + c + "' after a closing quote; a field in quotes ends at "
                            + "the quote (write a quote inside it as \"\")");
                }
            } else if (c == '"') {
                if (!field.toString().isBlank()) {
                    throw new InputException(source + ":" + n + ": a quote inside an unquoted field; put the whole field in quotes "
                            + "and write the quote as \"\"");
                }
                field.setLength(0);
                quoted = true;
                quoteLine = n;
            } else {
                field.append(c);
            }
        }
        if (!quoted) {
            endField();
            records.add(new Record(recordLine, fields));
            fields = new ArrayList<>();
        }
    }

    private void endField() {
        fields.add(closed ? field.toString() : field.toString().strip());
        field.setLength(0);
        closed = false;
    }
}
