/** Where a verb's result goes: the marker that makes a file this tool's own, and the atomic write that replaces it. */
package io.nccldoctor.core.output;
