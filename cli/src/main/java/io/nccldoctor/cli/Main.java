package io.nccldoctor.cli;

import java.io.PrintWriter;

/** Entry point of the runnable jar. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int code = Cli.run(args, out, err);
        out.flush();
        err.flush();
        System.exit(code);
    }
}
