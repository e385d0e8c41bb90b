package io.nccldoctor.reports;

/** The process exit codes of every verb (DESIGN.md). */
public final class ExitCodes {

    /** Nothing at error level. */
    public static final int OK = 0;
    /** An error-level finding, or a run that failed. */
    public static final int FINDINGS = 1;
    /** Usage or input error: a bad flag, a missing or malformed file. */
    public static final int USAGE = 2;
    /** The tool itself failed. */
    public static final int INTERNAL = 3;

    private ExitCodes() {
    }
}
