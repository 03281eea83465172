/**
 * Sluice's JMH benchmarks, profilers and report tooling. The benchmarks land with the JMH issue; until then this
 * module builds against {@code sluice-core} so that the layout is in place.
 */
package dev.sluice.jmh;
