/** A/B comparison of two sets of measured sweeps (two NCCL versions, two settings): per size, whether B is faster and whether that is real. */
package io.nccldoctor.reports.compare;
