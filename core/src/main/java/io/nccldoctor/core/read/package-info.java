/** Reading user inputs: at most 64 MiB, bytes that are not UTF-8 replaced and counted, one line per problem. */
package io.nccldoctor.core.read;
