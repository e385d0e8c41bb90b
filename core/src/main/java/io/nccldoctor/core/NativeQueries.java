package io.nccldoctor.core;

import java.util.function.Supplier;

/**
 * Answers from native libraries (NCCL, CUDA, NVML, ibverbs), keyed so that a capture can record them and a
 * replay can give them back without loading anything. The key names the question ("nccl.version:/usr/lib/…").
 */
public interface NativeQueries {

    <T> Fact<T> query(String key, Class<T> type, Supplier<Fact<T>> live);

    /** Asks the libraries of this machine. */
    static NativeQueries live() {
        return new NativeQueries() {
            @Override
            public <T> Fact<T> query(String key, Class<T> type, Supplier<Fact<T>> live) {
                return live.get();
            }
        };
    }
}
