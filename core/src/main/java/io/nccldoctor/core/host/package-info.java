/** The host's file system, live or captured, with every access reportable for capture. */
package io.nccldoctor.core.host;
