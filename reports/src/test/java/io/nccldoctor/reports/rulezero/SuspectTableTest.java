package io.nccldoctor.reports.rulezero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Suspect tables in CSV and JSON: what they accept, and one-line errors that name FILE:LINE. */
class SuspectTableTest {

    @TempDir
    Path dir;

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void csvWithCommentsAnyCaseAndBusbwFromTimeOrAlgbw() throws IOException {
        Path p = write("suspect.csv", """
                # the harness, n -= n % 3
                Collective, DTYPE, Count, Bytes, Ranks, Time_us, BusBW, AlgBW

                alltoall, float, 134217726, , 3, , 1.1,        # the field report's tensor
                alltoall, float, , 536870880, 3, 103244.4, ,
                all_reduce_perf, fp32, 1048576, 4194304, 8, , , 10.0
                """);
        List<SuspectRow> rows = SuspectTable.parse(p);
        assertThat(rows).hasSize(3);
        SuspectRow field = rows.get(0);
        assertThat(field.collective()).isEqualTo("alltoall");
        assertThat(field.dtype()).isEqualTo("float");
        assertThat(field.count()).isEqualTo(134_217_726L);
        assertThat(field.bytes()).isEqualTo(536_870_904L);
        assertThat(field.busBw().get()).isEqualTo(1.1);
        assertThat(field.timeUs().isValue()).isFalse();
        assertThat(field.source()).isEqualTo(p + ":4");
        SuspectRow timed = rows.get(1);
        assertThat(timed.count()).as("bytes / 4").isEqualTo(134_217_720L);
        // nccl-tests: algbw = 536,870,880 B / 103,244.4 us = 5.2 GB/s; alltoall busbw = algbw x (3 - 1) / 3
        assertThat(timed.busBw().get()).isCloseTo(5.2 * 2 / 3, Offset.offset(1e-6));
        assertThat(timed.timeUs().get()).isEqualTo(103_244.4);
        SuspectRow reduced = rows.get(2);
        assertThat(reduced.collective()).isEqualTo("allreduce");
        assertThat(reduced.busBw().get()).as("allreduce busbw = algbw x 2(n-1)/n").isCloseTo(17.5, Offset.offset(1e-9));
        assertThat(reduced.source()).isEqualTo(p + ":6");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "no header columns known   | collective,dtype,count,ranks,gbps\\nalltoall,float,3,3,1                 | :1: unknown column 'gbps'; the columns are collective, dtype, count, bytes, ranks, time_us, busbw, algbw",
        "a column twice            | collective,dtype,count,ranks,busbw,BUSBW\\nalltoall,float,3,3,1,1       | :1: column 'busbw' appears twice",
        "cells against the header  | collective,dtype,count,ranks,busbw\\n# ok\\nalltoall,float,3,3             | :3: 4 cells where the header has 5",
        "unknown collective        | collective,dtype,count,ranks,busbw\\nall2all,float,3,3,1                 | :2: unknown collective 'all2all'; use one of",
        "unknown dtype             | collective,dtype,count,ranks,busbw\\nalltoall,float33,3,3,1               | :2: unknown data type 'float33'",
        "one rank                  | collective,dtype,count,ranks,busbw\\nalltoall,float,3,1,1                 | :2: ranks 1: bus bandwidth needs 2 or more ranks",
        "no size                   | collective,dtype,count,ranks,busbw\\nalltoall,float,,3,1                  | :2: no count or bytes",
        "no bandwidth or time      | collective,dtype,count,ranks,busbw\\nalltoall,float,12,3,                 | :2: no busbw, time_us or algbw",
        "decimal comma             | collective,dtype,count,ranks,busbw\\nalltoall,float,12,3,\"1,5\"          | :2: busbw '1,5': give a number 0 or more, with a decimal point",
        "not a number              | collective,dtype,count,ranks,busbw\\nalltoall,float,12,3,fast             | :2: busbw 'fast': give a number 0 or more",
        "negative                  | collective,dtype,count,ranks,busbw\\nalltoall,float,12,3,-1               | :2: busbw '-1': give a number 0 or more",
        "a count with a unit       | collective,dtype,count,ranks,busbw\\nalltoall,float,12k,3,1               | :2: count '12k': give a whole number",
        "bytes of half an element  | collective,dtype,bytes,ranks,busbw\\nalltoall,float,6,3,1                 | :2: bytes 6 is no whole number of float elements (4 bytes each)",
        "count and bytes disagree  | collective,dtype,count,bytes,ranks,busbw\\nalltoall,float,12,40,3,1       | :2: bytes 40 does not match count 12 of float (48 bytes; 48 moved when split over 3 ranks)",
        "too few elements to split | collective,dtype,count,ranks,busbw\\nalltoall,float,2,3,1                  | :2: count 2 over 3 ranks leaves no element to move",
        "zero time                 | collective,dtype,count,ranks,time_us\\nalltoall,float,12,3,0              | :2: time_us 0.0: a time is above 0",
        "only a header             | # nothing yet\\ncollective,dtype,count,ranks,busbw                         | : no rows",
    })
    void badCsvIsOneLineNamingFileAndLine(String what, String text, String message) throws IOException {
        Path p = write("bad.csv", text.strip().replace("\\n", "\n") + "\n");
        assertThatThrownBy(() -> SuspectTable.parse(p)).as(what).isInstanceOf(InputException.class)
                .hasMessageStartingWith(p + message.strip())
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void jsonArrayOrRowsObjectWithYamlComments() throws IOException {
        Path array = write("suspect.json", """
                # the harness
                [
                  {"collective": "alltoall", "dtype": "float", "count": 134217726, "ranks": 3, "busbw": 1.1},
                  {"Collective": "alltoall", "DType": "float", "bytes": 536870880, "ranks": "3", "time_us": 103244.4, "busbw": null}
                ]
                """);
        List<SuspectRow> rows = SuspectTable.parse(array);
        assertThat(rows).extracting(SuspectRow::count).containsExactly(134_217_726L, 134_217_720L);
        assertThat(rows).extracting(SuspectRow::source).containsExactly(array + ":3", array + ":4");
        assertThat(rows.get(1).busBw().get()).isCloseTo(5.2 * 2 / 3, Offset.offset(1e-6));
        Path object = write("rows.json", """
                {"rows": [
                  {"collective": "allgather", "dtype": "bf16", "count": 4096, "ranks": 8, "algbw": 8.0}
                ]}
                """);
        SuspectRow r = SuspectTable.parse(object).get(0);
        assertThat(r.dtype()).isEqualTo("bfloat16");
        assertThat(r.busBw().get()).as("allgather busbw = algbw x 7/8").isEqualTo(7.0);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "syntax                  | [\\n  {\"collective\": \"alltoall\",\\n  \"dtype\": }\\n]                                          | :3: not valid JSON",
        "unknown field           | [\\n  {\"collective\": \"alltoall\", \"dtype\": \"float\", \"count\": 12, \"ranks\": 3, \"gbps\": 1}\\n] | :2: unknown field 'gbps'",
        "nested value            | [\\n\\n  {\"collective\": [\"alltoall\"]}\\n]                                                      | :3: field 'collective' is array",
        "row not an object       | [\\n  \"alltoall\"\\n]                                                                              | :2: a row is an object",
        "wrong top-level key     | {\"measurements\": []}                                                                            | :1: expected \"rows\"",
        "a fraction of an element | [\\n  {\"collective\": \"alltoall\", \"dtype\": \"float\", \"count\": 12.5, \"ranks\": 3, \"busbw\": 1}\\n] | :2: count '12.5': give a whole number",
        "empty                   | []                                                                                                 | : no rows",
    })
    void badJsonIsOneLineNamingFileAndLine(String what, String text, String message) throws IOException {
        Path p = write("bad.json", text.strip().replace("\\n", "\n") + "\n");
        assertThatThrownBy(() -> SuspectTable.parse(p)).as(what).isInstanceOf(InputException.class)
                .hasMessageStartingWith(p + message.strip())
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void aRunJsonIsReadAsARun() {
        List<SuspectRow> rows = SuspectTable.parse(Inputs.EXAMPLE.resolve("alltoall-harness.json"));
        assertThat(rows).hasSize(18);
        assertThat(rows.get(0).count()).isEqualTo(262_140L); // 1 MiB trimmed to a multiple of 48 bytes (3 ranks x 16)
        assertThat(rows.get(0).ranks()).isEqualTo(3);
        assertThat(rows.get(0).source()).endsWith("alltoall-harness.json, 1048560 B");
    }

    @Test
    void aMissingFileIsOneLine() {
        assertThatThrownBy(() -> SuspectTable.parse(dir.resolve("none.csv"))).isInstanceOf(InputException.class)
                .hasMessage(dir.resolve("none.csv") + ": no such file");
    }
}
