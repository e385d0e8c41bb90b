/** Rule zero, one flag away: runs the nccl-tests binaries with the same sizes and flags and reads their output. */
package io.nccldoctor.collectives.reference;
