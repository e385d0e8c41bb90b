/** The picocli commands: parse options, call a module, hand the result to a renderer. */
package io.nccldoctor.cli;
