/** Parsers of third-party outputs: nccl-tests tables and NCCL debug logs. */
package io.nccldoctor.collectives.parse;
