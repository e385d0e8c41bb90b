/** The collectives, one small class each, sized and measured exactly as nccl-tests does (docs/collectives.md). */
package io.nccldoctor.collectives.coll;
