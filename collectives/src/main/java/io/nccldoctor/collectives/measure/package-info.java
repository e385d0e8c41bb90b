/**
 * The native measurement loop: device buffers, conditioning like nccl-tests or as given, warm-up, timed
 * iterations around a stream synchronise, algbw and busbw, validation counting wrong elements, and a time limit
 * that aborts a stuck communicator. The GPU and NCCL sit behind {@link io.nccldoctor.collectives.measure.Backend}.
 */
package io.nccldoctor.collectives.measure;
