/**
 * How ranks find each other: rank, world size and local rank from the launcher that started this process
 * (Slurm, Open MPI, PMI, torchrun-style variables), and whether NCCL_COMM_ID is safe for the loaded NCCL.
 */
package io.nccldoctor.collectives.launch;
