package io.nccldoctor.reports.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RFC 4180 records from hand-written and exported tables, with the line each starts on. */
class CsvReaderTest {

    static List<CsvReader.Record> read(boolean trailingComments, String... lines) {
        return CsvReader.read(List.of(lines), "t.csv", trailingComments);
    }

    @Test
    void plainFieldsAreStrippedAndBlankAndCommentLinesSkipped() {
        assertThat(read(false, "\uFEFFhost , label,busbw_gbps", "", "# a comment", "  n1,  allreduce 1GiB ,190.25"))
                .containsExactly(new CsvReader.Record(1, List.of("host", "label", "busbw_gbps")),
                        new CsvReader.Record(4, List.of("n1", "allreduce 1GiB", "190.25")));
        assertThat(read(false, "a,,c,").get(0).fields()).as("empty fields count").containsExactly("a", "", "c", "");
    }

    @Test
    void quotedFieldsHoldCommasQuotesHashesAndLineBreaks() {
        List<CsvReader.Record> r = read(true, "label,host,note", "\"allreduce 1 GiB, 2 nodes\", \"n1\" ,\"say \"\"hi\"\" # not a comment\"",
                "\"two", "lines\",n2,x # a comment", "last,n3,y");
        assertThat(r).containsExactly(new CsvReader.Record(1, List.of("label", "host", "note")),
                new CsvReader.Record(2, List.of("allreduce 1 GiB, 2 nodes", "n1", "say \"hi\" # not a comment")),
                new CsvReader.Record(3, List.of("two\nlines", "n2", "x")),
                new CsvReader.Record(5, List.of("last", "n3", "y")));
        assertThat(read(false, "\"  kept  \",x").get(0).fields()).as("spaces inside quotes are data").containsExactly("  kept  ", "x");
        assertThat(read(false, "a#b,c").get(0).fields()).as("without trailing comments '#' is data").containsExactly("a#b", "c");
    }

    @Test
    void brokenQuotingIsOneLineNamingWhere() {
        assertThatThrownBy(() -> read(false, "a,b", "\"open,c", "d,e")).isInstanceOf(InputException.class)
                .hasMessageStartingWith("t.csv:2: a quoted field opened here is not closed");
        assertThatThrownBy(() -> read(false, "\"a\"b,c")).isInstanceOf(InputException.class)
                .hasMessageStartingWith("t.csv:1: 'b' after a closing quote");
        assertThatThrownBy(() -> read(false, "x,a\"b\"")).isInstanceOf(InputException.class)
                .hasMessageStartingWith("t.csv:1: a quote inside an unquoted field");
    }
}
