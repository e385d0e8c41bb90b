package io.nccldoctor.core;

/**
 * Bad input from the user: a flag value, a file that is missing or malformed. The message is one line that
 * says what is wrong, where (file and line), and what to do; the CLI prints it and exits 2.
 */
public final class InputException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InputException(String message) {
        super(message);
    }

    public InputException(String message, Throwable cause) {
        super(message, cause);
    }
}
