package io.nccldoctor.collectives.parse;

import io.nccldoctor.collectives.parse.MessageKinds.Kind;
import io.nccldoctor.collectives.parse.NcclLog.GdrLine;
import io.nccldoctor.collectives.parse.NcclLog.NicGdr;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * What each INFO message of a known kind does to the log, read once per distinct text and applied to every line that
 * repeats it ({@link MessageMemo}): the version, the CUDA driver, a network line, a GDR decision or a NIC's GDR support,
 * an environment variable, a communicator's Init or node count, a line of the topology dump. What is kept of a line is
 * kept in its own words, so that the first line of a kind is the example whichever process printed it.
 */
final class MessageEffects {

    private final LogBuilder builder;

    MessageEffects(LogBuilder builder) {
        this.builder = builder;
    }

    /** What one message does to the log, found once per distinct text. */
    interface Effect {
        Effect NONE = b -> {
        };

        void apply(LogBuilder b);

        /** Whether applying it again changes nothing (a set that already holds what it adds): then it is applied once. */
        default boolean once() {
            return false;
        }
    }

    /** An effect that changes nothing when applied again. */
    private static Effect once(Effect e) {
        return new Effect() {
            @Override
            public void apply(LogBuilder b) {
                e.apply(b);
            }

            @Override
            public boolean once() {
                return true;
            }
        };
    }

    /** What the message at {@code msg} says (its line is given whole: some readers look at all of it). */
    Effect read(Kind kind, String line, int msg) {
        return switch (kind) {
            case VERSION -> LogMessages.version(line).<Effect>map(v -> b -> b.addVersion(v)).orElse(Effect.NONE);
            case DRIVER -> InitMessages.driver(line.substring(msg)).map(d -> once(b -> b.init.driver(d))).orElse(Effect.NONE);
            case GIT_VERSION -> InitMessages.gitVersion(builder.text(line.substring(msg))).map(g -> once(b -> b.init.gitVersion(g)))
                    .orElse(b -> b.unknownMessages++); // the words without a build: counted as not understood
            case GDR -> gdrEffect(line);
            case NETWORK -> line.indexOf("GPU Direct RDMA", msg) >= 0 ? gdrEffect(line)
                    : networkEffect(NetworkLog.read(builder.text(line.substring(msg))));
            case ENV -> InitMessages.environment(builder.text(line.substring(msg)))
                    .map(e -> once(b -> b.init.environment(e.getKey(), e.getValue()))).orElse(Effect.NONE);
            case COMM, INIT -> communicatorEffect(line, msg);
            case NIC_DISTANCE -> NicDistances.read(builder.text(line.substring(msg)), builder.kept(line))
                    .<Effect>map(d -> b -> b.nicDistances.add(d)).orElse(b -> b.unknownMessages++); // counted as not understood
            case MNNVL -> MnnvlFabric.read(builder.text(line.substring(msg)), builder.kept(line))
                    .<Effect>map(g -> b -> b.mnnvl.add(g)).orElse(b -> b.unknownMessages++); // a cut line: counted as not understood
            case TOPO -> SystemDumps.read(line.substring(msg)).<Effect>map(l -> b -> {
                b.dumps.add(b.thread(), l);
            }).orElse(Effect.NONE);
            default -> Effect.NONE;
        };
    }

    static Effect networkEffect(NetworkLog.Said said) {
        if (said.category() == NetworkLog.Category.DEVICE) { // NCCL 2.3: a device per line, joined into its process's list
            return b -> b.network.device(b.process().map(p -> p.key).orElse(""), said);
        }
        return b -> {
            b.network.add(said);
            if (said.category() == NetworkLog.Category.CHOSEN) {
                b.process().ifPresent(p -> p.networks.add(said.name()));
            }
        };
    }

    Effect gdrEffect(String line) {
        Optional<GdrLine> g = LogMessages.gdr(line);
        if (g.isPresent()) {
            GdrLine raw = g.get();
            // the GPU and NIC as the log wrote them (a Latin-1 view of a file's bytes is read as UTF-8), as the kept line
            String gpu = builder.text(raw.gpu());
            String hca = builder.text(raw.hca());
            String key = gdrKey(raw.enabled(), gpu, hca);
            NcclLog.GdrCount decision = decision(raw.enabled(), raw.distance(), raw.relation(), raw.threshold(), raw.wording());
            Supplier<GdrLine> kept = () -> new GdrLine(raw.enabled(), gpu, hca, raw.distance(), raw.relation(), raw.threshold(),
                    builder.kept(line));
            return b -> b.addGdr(key, kept, decision);
        }
        return LogMessages.nicGdr(line).<Effect>map(n -> {
            NicGdr kept = new NicGdr(n.net(), n.index(), n.hca(), n.enabled(), n.noModule(), builder.kept(line));
            String key = nicKey(kept);
            return once(b -> b.addNicGdr(key, kept));
        }).orElse(Effect.NONE);
    }

    /**
     * A communicator's Init START / COMPLETE line (its size, its GPU) or its "nRanks 16 nNodes 2" line: each reader runs
     * only on the line it reads (these lines are one per communicator and rank, and each is read).
     */
    private Effect communicatorEffect(String line, int msg) {
        boolean init = line.indexOf(" - Init ", msg) >= 0;
        OptionalInt size = init && line.indexOf("Init COMPLETE", msg) >= 0 ? LogMessages.communicatorSize(line) : OptionalInt.empty();
        Optional<InitMessages.Init> started = init ? InitMessages.init(line, msg) : Optional.empty();
        Optional<Integer> nodes = init ? Optional.empty() : InitMessages.nodes(line, msg);
        long commId = init ? InitLog.commId(line, msg) : InitLog.NO_COMM_ID;
        return b -> {
            size.ifPresent(b.comms::add);
            started.ifPresent(i -> {
                b.init.communicator(i.nranks(), i.busId(), i.complete(), commId);
                Processes.Facts p = b.current();
                if (p != null) {
                    p.busIds.add(i.busId());
                }
            });
            nodes.ifPresent(b.init::nodes);
        };
    }

    /** One object per kind of decision, so that the decisions of every rank are counted by the same few objects. */
    private final Map<NcclLog.GdrCount, NcclLog.GdrCount> decisions = new HashMap<>();

    /** The one object of this kind of decision (counted once). */
    NcclLog.GdrCount decision(boolean enabled, int distance, String relation, int threshold, NcclLog.GdrWording wording) {
        return decisions.computeIfAbsent(new NcclLog.GdrCount(enabled, distance, relation, threshold, wording, 1), d -> d);
    }

    static String gdrKey(GdrLine g) {
        return gdrKey(g.enabled(), g.gpu(), g.hca());
    }

    private static String gdrKey(boolean enabled, String gpu, String hca) {
        return (enabled ? "Enabled" : "Disabled") + gpu + "/" + hca;
    }

    static String nicKey(NicGdr n) {
        return n.net() + "|" + n.index() + "|" + n.hca() + "|" + n.enabled() + "|" + n.noModule();
    }
}
