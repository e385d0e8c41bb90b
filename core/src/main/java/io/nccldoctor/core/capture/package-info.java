/** Capture folders: writing what the probes read, and opening them for replay with --from. */
package io.nccldoctor.core.capture;
