package io.nccldoctor.cli;

import java.io.PrintWriter;

/** Entry point of the runnable jar. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** One command, its output flushed; the exit code (the class-data training runs its commands through here too). */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        int code = Cli.run(args, out, err);
        out.flush();
        err.flush();
        return code;
    }
}
