package io.nccldoctor.core;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a probe found out about one thing: a value, or why there is none.
 *
 * <p>{@link Absent} means the thing is not there or does not apply ("no /proc/driver/nvidia/version: the
 * NVIDIA kernel module is not loaded"); {@link Failure} means we tried to find out and could not
 * ("permission denied: /sys/.../config"). Never a sentinel such as -1 or "".
 */
public sealed interface Fact<T> permits Fact.Value, Fact.Absent, Fact.Failure {

    record Value<T>(T value) implements Fact<T> {
        public Value {
            Objects.requireNonNull(value, "a Fact value is never null; use Fact.absent(reason)");
        }
    }

    record Absent<T>(String reason) implements Fact<T> {
        public Absent {
            Objects.requireNonNull(reason, "an absent fact says why");
        }
    }

    record Failure<T>(String cause) implements Fact<T> {
        public Failure {
            Objects.requireNonNull(cause, "a failed fact says what failed");
        }
    }

    static <T> Fact<T> of(T value) {
        return new Value<>(value);
    }

    static <T> Fact<T> absent(String reason) {
        return new Absent<>(reason);
    }

    static <T> Fact<T> error(String cause) {
        return new Failure<>(cause);
    }

    /** A failure from an exception: its class-free message, or the class name when it has none. */
    static <T> Fact<T> error(Throwable cause) {
        String message = cause.getMessage();
        return new Failure<>(message == null || message.isBlank() ? cause.getClass().getSimpleName() : message);
    }

    /** The value, or absent(reason) when the supplier returns null. */
    static <T> Fact<T> ofNullable(T value, String reasonIfNull) {
        return value == null ? absent(reasonIfNull) : of(value);
    }

    default boolean isValue() {
        return this instanceof Value;
    }

    default boolean isAbsent() {
        return this instanceof Absent;
    }

    default boolean isError() {
        return this instanceof Failure;
    }

    /** The value; call only after {@link #isValue()}. */
    default T get() {
        if (this instanceof Value<T> v) {
            return v.value();
        }
        throw new IllegalStateException("no value: " + describe());
    }

    default T orElse(T other) {
        return this instanceof Value<T> v ? v.value() : other;
    }

    default T orElseGet(Supplier<T> other) {
        return this instanceof Value<T> v ? v.value() : other.get();
    }

    /** Maps a value; absent and failure carry their reason over unchanged. */
    @SuppressWarnings("unchecked")
    default <R> Fact<R> map(Function<? super T, ? extends R> f) {
        if (this instanceof Value<T> v) {
            return Fact.of(f.apply(v.value()));
        }
        return (Fact<R>) this;
    }

    @SuppressWarnings("unchecked")
    default <R> Fact<R> flatMap(Function<? super T, Fact<R>> f) {
        if (this instanceof Value<T> v) {
            return f.apply(v.value());
        }
        return (Fact<R>) this;
    }

    /** The reason or cause when there is no value; empty string never occurs for those states. */
    default String reason() {
        if (this instanceof Absent<T> a) {
            return a.reason();
        }
        if (this instanceof Failure<T> e) {
            return e.cause();
        }
        throw new IllegalStateException("a value has no reason");
    }

    /** The value through {@code onValue}, or the reason through {@code onMissing}: both sides evaluated lazily. */
    default <R> R fold(Function<? super T, ? extends R> onValue, Function<String, ? extends R> onMissing) {
        return this instanceof Value<T> v ? onValue.apply(v.value()) : onMissing.apply(reason());
    }

    /** One human line: the value, "absent: reason" or "error: cause". */
    default String describe() {
        if (this instanceof Value<T> v) {
            return String.valueOf(v.value());
        }
        return (this instanceof Absent ? "absent: " : "error: ") + reason();
    }
}
