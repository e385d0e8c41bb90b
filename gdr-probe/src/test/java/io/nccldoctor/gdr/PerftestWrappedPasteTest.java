package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * perftest pastes behind RHEL prompts, `bash -x` traces, wrappers and Markdown quotes, and a completion error pasted
 * alone: the real texts of corpus/perftest (its README cites each).
 */
class PerftestWrappedPasteTest {

    private static PerftestOutput parse(String file) throws IOException {
        return PerftestOutput.parse(Files.readAllLines(Path.of("../corpus/perftest", file)), file);
    }

    private static String side(String line) {
        PerftestCommandLine c = PerftestCommandLine.of(line);
        return c == null ? "no command" : c.program() + " " + c.side().fold(s -> s, why -> "unknown: " + why);
    }

    /** The prompt's brackets hold a blank; the flags after the program are perftest's, so the side is the server. */
    @Test
    void aRhelPromptWithABlankInsideIsAPrompt() throws IOException {
        assertThat(side("[root@localhost perftest-master]# ib_write_lat -a -n 5 -F -C")).isEqualTo("ib_write_lat server");
        assertThat(side("[root@node3 bin]# ib_write_bw -a -d mlx5_0 --report_gbits  node1")).isEqualTo("ib_write_bw client");
        PerftestOutput p = parse("perftest-write-lat-rhel-prompt-sq-size-warning-mlx4.txt");
        assertThat(p.role().get()).isEqualTo("server");
        assertThat(p.notUnderstood()).noneMatch(l -> l.contains("[root@localhost") || l.contains("Current TX depth")
                || l.contains("Requested SQ size"));
    }

    /** The old "SQ" wording came also when the QP was created (perftest 155d1e4): a warning, with its figures. */
    @Test
    void theOldQueueSizeMessageIsAWarningWithItsTxDepth() throws IOException {
        PerftestOutput p = parse("perftest-write-lat-rhel-prompt-sq-size-warning-mlx4.txt");
        assertThat(p.warnings()).singleElement().asString().startsWith("Requested SQ size might be too big.")
                .contains("also when the QP was created").endsWith("; TX depth 1, inline size 220");
        assertThat(p.errors()).isEmpty();
        assertThat(p.header()).containsEntry("Device", "mlx4_0").containsEntry("Mtu", "1024[B]");
    }

    /** Synthetic, perftest_resources.c:3332-3333's wording since 155d1e4: the QP was not created, an error. */
    @Test
    void theNewQueueSizeMessageIsAnError() {
        PerftestOutput p = PerftestOutput.parse(List.of("Requested QP size might be too big. Try reducing TX depth and/or inline size.",
                "Current TX depth is 8192 and  inline size is 0 ."), "qp-size.txt");
        assertThat(p.errors()).singleElement().asString().contains("ibv_create_qp failed with ENOMEM")
                .endsWith("; TX depth 8192, inline size 0");
        assertThat(p.notUnderstood()).isEmpty();
    }

    @Test
    void aTracedTasksetCommandIsTheClients() throws IOException {
        assertThat(side("+ taskset -c 17 ib_send_bw -d mlx5_bond_0 -z -f 2 -F --report_gbits -D 205200 -p 20003 -x 3 192.168.219.6"))
                .isEqualTo("ib_send_bw client");
        PerftestOutput p = parse("perftest-send-bw-bash-trace-taskset-roce-bond.txt");
        assertThat(p.role().get()).isEqualTo("client");
        assertThat(p.notUnderstood()).singleElement().asString().endsWith("Fri, 20 Mar 2020 22:35:36 +0800");
    }

    /** Synthetic lines: each wrapper's own options and its mask or duration are not taken for perftest's. */
    @Test
    void wrappersAndTheirOptionsAreSkipped() {
        assertThat(side("numactl --cpunodebind=1 --membind=1 ib_write_bw -d mlx5_0 10.0.0.1")).isEqualTo("ib_write_bw client");
        assertThat(side("numactl -N 0 -m 0 ib_send_lat -d mlx5_0")).isEqualTo("ib_send_lat server");
        assertThat(side("timeout -s INT 60 ib_read_bw -d mlx5_1")).isEqualTo("ib_read_bw server");
        assertThat(side("sudo taskset 0x4 ib_write_bw -d mlx5_2 node2")).isEqualTo("ib_write_bw client");
        assertThat(side("$ sudo -u bench env OMP_NUM_THREADS=1 nohup ib_write_bw -d mlx5_0")).isEqualTo("ib_write_bw server");
        assertThat(side("taskset -c 17 ./run.sh")).isEqualTo("no command");
    }

    /** Every line behind "> ": the quote marks come off; the fence and the cut 16 B row are the lines not read. */
    @Test
    void aQuotedPasteIsReadAsPrinted() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-markdown-quoted-ib-client.txt");
        assertThat(p.test().get()).isEqualTo("RDMA_Write BW Test");
        assertThat(p.role().get()).isEqualTo("client");
        assertThat(p.unit()).isEqualTo("Gb/sec");
        assertThat(p.rows()).extracting(PerftestOutput.Row::bytes).containsExactly(2L, 4L, 8L);
        assertThat(p.rows().get(0).average()).isEqualTo(0.042185);
        assertThat(p.notUnderstood()).hasSize(2);
        assertThat(p.notUnderstood().get(0)).endsWith(":1: ```");
        assertThat(p.notUnderstood().get(1)).contains(":25: 16         5000             0.34");
    }

    /** Quoted lines among others are left as they are: only a text quoted as a whole is taken off its marks. */
    @Test
    void aPartlyQuotedTextKeepsItsMarks() {
        assertThat(PerftestQuote.unquoted(List.of("> RDMA_Write BW Test", "plain"))).containsExactly("> RDMA_Write BW Test", "plain");
        assertThat(PerftestQuote.unquoted(List.of("> a", "", ">b"))).containsExactly("a", "", "b");
    }

    /** perftest_resources.h NOTIFY_COMP_ERROR_SEND in its older wording; status 4 is IBV_WC_LOC_PROT_ERR (rdma-core verbs.h). */
    @Test
    void aCompletionErrorAloneIsDecoded() throws IOException {
        PerftestOutput p = parse("perftest-completion-error-status4-alone.txt");
        assertThat(p.errors()).hasSize(2);
        assertThat(p.errors().get(0)).startsWith("a work completion failed at the client")
                .contains("status 4 = IBV_WC_LOC_PROT_ERR, 'local protection error', wr_id 0, vendor syndrome 0x51")
                .endsWith("828 posted (scnt), 700 completed (ccnt)");
        assertThat(p.errors().get(1)).isEqualTo("Failed to complete run_iter_bw function successfully");
        assertThat(p.notUnderstood()).as("the two Markdown fences only").hasSize(2).allMatch(l -> l.endsWith("```"));
        assertThat(p.outcome()).isEqualTo("no result: perftest printed an error");
    }

    /** Synthetic, in the wordings of perftest's format strings since c7f9e40 and before it with qp_num. */
    @Test
    void theOtherCompletionWordingsAreDecodedToo() {
        PerftestOutput p = PerftestOutput.parse(List.of(" Completion with error at server",
                " Failed status-transport retry counter exceeded (12): wr_id 0 syndrom 0x81", " rcnt=5"), "new.txt");
        assertThat(p.errors()).singleElement().asString().contains("status 12 = IBV_WC_RETRY_EXC_ERR, 'transport retry counter exceeded'")
                .endsWith("5 received (rcnt)");
        PerftestOutput q = PerftestOutput.parse(List.of(" Failed status 5: qp_num 4660 wr_id 3 syndrom 0xf9"), "old.txt");
        assertThat(q.errors()).singleElement().asString().startsWith("a work completion failed: status 5 = IBV_WC_WR_FLUSH_ERR")
                .contains("QP number 4660");
        assertThat(PerftestCompletion.status(31)).contains("does not have");
    }
}
