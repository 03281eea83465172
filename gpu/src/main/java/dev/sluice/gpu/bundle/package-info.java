/**
 * Tools for packing the GPU run for a machine of a known card ({@code scripts/gpu-stage --arch}): nothing here runs
 * in a benchmark.
 */
package dev.sluice.gpu.bundle;
