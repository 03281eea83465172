/**
 * cuDF inputs for Sluice: batches with the same rows as the Arrow ones, partitioned on the GPU, feeding the same
 * strategies. Not built yet; the module compiles against {@code sluice-core} so that the layout is in place.
 */
package dev.sluice.gpu;
