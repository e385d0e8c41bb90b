/** NCCL work: finding and loading the native libraries; later the native launcher and the nccl-tests parsers. */
package io.nccldoctor.collectives;
