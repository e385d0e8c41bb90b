package io.nccldoctor.collectives.sweep;

import java.util.List;
import java.util.Map;

/** What the orchestrator asks a child to run (written as JSON to the child's folder). */
public record ChildRequest(String plan, String child, List<String> collectives, String minBytes, String maxBytes, int stepFactor,
                           String dtype, String op, int warmup, int iters, int check, int gpus, int timeoutSeconds,
                           Map<String, String> env) {
}
