package io.nccldoctor.reports.rulezero;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.nccldoctor.core.InputException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A suspect table as a spreadsheet exports it: every text field in quotes, read as RFC 4180. */
class SuspectTableCsvTest {

    @Test
    void quotedFieldsReadAsTheirValues() {
        List<SuspectRow> rows = SuspectTable.parseCsv(List.of("\"collective\",\"dtype\",\"count\",\"ranks\",\"busbw\"",
                "\"alltoall\",\"float\",\"262140\",3,1.02   # the first size", "\"alltoall\", \"float\" ,4194303,\"3\",\"0.96\""), "s.csv");
        assertThat(rows).extracting(SuspectRow::collective, SuspectRow::dtype, SuspectRow::count, SuspectRow::ranks)
                .containsExactly(tuple("alltoall", "float", 262140L, 3),
                        tuple("alltoall", "float", 4194303L, 3));
        assertThat(rows.get(1).busBw().get()).isEqualTo(0.96);
    }

    @Test
    void aCommaInsideQuotesIsOneCellAndStillJudged() {
        assertThatThrownBy(() -> SuspectTable.parseCsv(List.of("collective,dtype,count,ranks,busbw",
                "alltoall,float,\"262,140\",3,1.02"), "s.csv")).isInstanceOf(InputException.class)
                .hasMessageStartingWith("s.csv:2: ").hasMessageContaining("262,140");
    }
}
