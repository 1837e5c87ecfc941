package io.libra.core.plan;

/** What a node is expected to carry once a plan is carried out, in the snapshot's units. */
public record NodeForecast(String id, double cpu, double diskBytesPerSec) {
}
