/** What two or more modules share: facts, the host access layer, JSON, the snapshot and the probe contract. */
package io.nccldoctor.core;
