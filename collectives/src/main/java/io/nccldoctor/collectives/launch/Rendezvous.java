package io.nccldoctor.collectives.launch;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

/**
 * Shares rank 0's NCCL unique id (128 bytes) with the other ranks when NCCL_COMM_ID cannot be used
 * ({@link CommIdPolicy}): through a file on a shared file system, or a TCP socket that rank 0 serves. Time-bounded
 * on both sides; the job key (from the launcher) keeps a rank from reading a previous job's id.
 *
 * <p>The exchanged text is one line, {@code nccl-doctor-rendezvous 1 key=<job key> id=<256 hex digits>}.
 */
public sealed interface Rendezvous permits Rendezvous.SharedFile, Rendezvous.Tcp {

    /** NCCL_UNIQUE_ID_BYTES in nccl.h. */
    int ID_BYTES = 128;
    String MAGIC = "nccl-doctor-rendezvous 1";

    /** Rank 0: makes the id available to the others (rank 0 of a TCP rendezvous keeps serving in the background). */
    void publish(byte[] id, String jobKey, int readers, Duration timeout);

    /** Other ranks: rank 0's id, or an error that says what did not happen in time. */
    Fact<byte[]> fetch(String jobKey, Duration timeout);

    /** "file:PATH" or "tcp://HOST:PORT"; anything else is an {@link InputException}. */
    static Rendezvous parse(String spec) {
        if (spec.startsWith("file:") && spec.length() > 5) {
            return new SharedFile(Path.of(spec.substring(5)));
        }
        if (spec.startsWith("tcp://")) {
            String hp = spec.substring(6);
            int colon = hp.lastIndexOf(':');
            if (colon > 0) {
                try {
                    int port = Integer.parseInt(hp.substring(colon + 1));
                    if (port > 0 && port < 65536) {
                        return new Tcp(hp.substring(0, colon).replace("[", "").replace("]", ""), port);
                    }
                } catch (NumberFormatException ignored) {
                    // falls through to the message below
                }
            }
        }
        throw new InputException("--rendezvous " + spec + ": use file:PATH (on a file system every rank sees) or tcp://HOST:PORT "
                + "(HOST is rank 0's address)");
    }

    static String line(byte[] id, String jobKey) {
        return MAGIC + " key=" + jobKey + " id=" + HexFormat.of().formatHex(id);
    }

    /** The id from a line, if the line is ours and names the same job; otherwise why not. */
    static Fact<byte[]> read(String line, String jobKey, String where) {
        if (line == null || !line.startsWith(MAGIC + " key=")) {
            return Fact.error(where + " does not hold an nccl-doctor rendezvous line");
        }
        int at = line.lastIndexOf(" id=");
        String key = line.substring((MAGIC + " key=").length(), Math.max(at, (MAGIC + " key=").length()));
        if (at < 0 || !key.equals(jobKey)) {
            return Fact.error(where + " is from another job (key '" + key + "', this job '" + jobKey + "')");
        }
        try {
            byte[] id = HexFormat.of().parseHex(line.substring(at + 4).strip());
            return id.length == ID_BYTES ? Fact.of(id) : Fact.error(where + " holds " + id.length + " bytes, not " + ID_BYTES);
        } catch (IllegalArgumentException e) {
            return Fact.error(where + " holds an id that is not hexadecimal");
        }
    }

    private static void check(byte[] id) {
        if (id.length != ID_BYTES) {
            throw new IllegalArgumentException("an NCCL unique id has " + ID_BYTES + " bytes, not " + id.length);
        }
    }

    /** A file on a shared path: rank 0 writes it atomically (a temporary file, then a rename); the others poll it. */
    record SharedFile(Path path) implements Rendezvous {

        @Override
        public void publish(byte[] id, String jobKey, int readers, Duration timeout) {
            check(id);
            Path tmp = path.resolveSibling(path.getFileName() + ".tmp" + ProcessHandle.current().pid());
            try {
                Files.writeString(tmp, line(id, jobKey) + "\n", StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new InputException("--rendezvous file:" + path + ": cannot write (" + e.getMessage() + "); give a writable "
                        + "path on a file system every rank shares", e);
            }
        }

        @Override
        public Fact<byte[]> fetch(String jobKey, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            Fact<byte[]> last = Fact.absent(path + " does not exist");
            while (true) {
                if (Files.isRegularFile(path)) {
                    try {
                        List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
                        last = read(lines.isEmpty() ? null : lines.get(0), jobKey, path.toString());
                        if (last.isValue()) {
                            return last;
                        }
                    } catch (IOException e) {
                        last = Fact.error("cannot read " + path + ": " + e.getMessage());
                    }
                }
                if (System.nanoTime() > deadline) {
                    return Fact.error("rank 0 did not publish its id within " + timeout.toSeconds() + " s at file:" + path + " ("
                            + last.reason() + "); is rank 0 running, and do all ranks see this path?");
                }
                sleep(100);
            }
        }
    }

    /** Rank 0 listens on PORT and answers each rank's request line; the others connect, retrying until the deadline. */
    record Tcp(String host, int port) implements Rendezvous {

        @Override
        public void publish(byte[] id, String jobKey, int readers, Duration timeout) {
            check(id);
            ServerSocket server;
            try {
                server = new ServerSocket();
                server.setReuseAddress(true);
                server.bind(new InetSocketAddress(port));
                server.setSoTimeout(200);
            } catch (IOException e) {
                throw new InputException("--rendezvous tcp://" + host + ":" + port + ": rank 0 cannot listen on port " + port + " ("
                        + e.getMessage() + "); choose a free port", e);
            }
            String answer = line(id, jobKey);
            long deadline = System.nanoTime() + timeout.toNanos();
            Thread serve = new Thread(() -> {
                int served = 0;
                try (server) {
                    while (served < readers && System.nanoTime() < deadline) {
                        try (Socket s = server.accept()) {
                            s.setSoTimeout(2000);
                            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                            String request = in.readLine();
                            Writer out = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
                            if ((MAGIC + " key=" + jobKey).equals(request)) {
                                out.write(answer + "\n");
                                served++;
                            } else {
                                out.write(MAGIC + " refused: this is job '" + jobKey + "'\n");
                            }
                            out.flush();
                        } catch (SocketTimeoutException e) {
                            // poll the deadline
                        } catch (IOException e) {
                            // one broken client must not stop the others
                        }
                    }
                } catch (IOException ignored) {
                    // closing the listener
                }
            }, "nccl-doctor-rendezvous");
            serve.setDaemon(true);
            serve.start();
        }

        @Override
        public Fact<byte[]> fetch(String jobKey, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            String last = "no answer";
            while (true) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(host, port), 1000);
                    s.setSoTimeout(5000);
                    Writer out = new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8);
                    out.write(MAGIC + " key=" + jobKey + "\n");
                    out.flush();
                    String reply = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
                    Fact<byte[]> id = read(reply, jobKey, "the answer of tcp://" + host + ":" + port);
                    if (id.isValue() || (reply != null && reply.startsWith(MAGIC + " refused"))) {
                        return id.isValue() ? id : Fact.error("tcp://" + host + ":" + port + " " + reply.substring(MAGIC.length() + 1)
                                + ", not '" + jobKey + "': another job's rank 0 holds this port");
                    }
                    last = id.reason();
                } catch (IOException e) {
                    last = e.getMessage();
                }
                if (System.nanoTime() > deadline) {
                    return Fact.error("rank 0 did not answer at tcp://" + host + ":" + port + " within " + timeout.toSeconds() + " s ("
                            + last + "); is rank 0 running, and is the port open between the nodes?");
                }
                sleep(200);
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
