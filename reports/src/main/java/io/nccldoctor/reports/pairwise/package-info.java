/** Pairwise and bisection runs across nodes: the plan, its launch through Slurm or MPI, the results per pair, and the slow node. */
package io.nccldoctor.reports.pairwise;
