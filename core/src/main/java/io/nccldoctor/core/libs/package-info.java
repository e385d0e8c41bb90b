/** Native libraries: finding them as the loader would, and asking them simple questions through JNA. */
package io.nccldoctor.core.libs;
