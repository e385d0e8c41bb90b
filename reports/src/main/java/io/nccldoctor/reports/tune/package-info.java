/** `nccl-doctor tune`: from sweep results to a per-size configuration for NCCL's example tuner plugin, its verification plan, and the cost of a global pin. */
package io.nccldoctor.reports.tune;
