package io.nccldoctor.gdr.text;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `ibdev2netdev` (MLNX_OFED): "mlx5_0 port 1 ==> ens1f0 (Up)", one line per port, also after `| column -t` and with
 * a comment appended. The (Up)/(Down) is the net device's link, not the RDMA port's state: an InfiniBand port can be
 * ACTIVE while its IPoIB interface is down.
 */
final class Ibdev2netdevReader implements SectionReader {

    static final Pattern ROW = Pattern.compile("^\\s*([\\w.-]+)\\s+port\\s+(\\d+)\\s+==>\\s+([\\w.@-]+)\\s+\\((Up|Down)\\)\\s*(?:#.*)?$");

    private final PasteFacts facts;

    Ibdev2netdevReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        Matcher m = ROW.matcher(line);
        if (!m.matches()) {
            return Verdict.FOREIGN;
        }
        facts.link(m.group(1), Integer.parseInt(m.group(2)), m.group(3));
        facts.netdev(m.group(3)).link.set(m.group(4), at, facts.notes);
        return Verdict.FACT;
    }
}
