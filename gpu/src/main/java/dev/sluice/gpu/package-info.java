/**
 * The GPU path: a map task's Arrow input as cuDF tables ({@link dev.sluice.gpu.DeviceInput}), partitioned on the
 * device as spark-rapids does ({@link dev.sluice.gpu.GpuPartitioning}), copied to host once into pinned or pageable
 * memory ({@link dev.sluice.gpu.HostMemory}), each partition's slice a record of the serializer spark-rapids is set to,
 * kudo ({@link dev.sluice.gpu.KudoPayload}, its default) or JCudfSerialization ({@link dev.sluice.gpu.JCudfPayload}),
 * chosen by {@link dev.sluice.gpu.GpuSerializer}, written through any strategy ({@link dev.sluice.gpu.GpuMapTask}) and
 * verified as a multiset of rows ({@link dev.sluice.gpu.GpuVerifier}). cudf-java and kudo come from the
 * spark-rapids-jni jar, a provided dependency: bring the build that matches your CUDA. Classes that need a device say
 * so; {@link dev.sluice.gpu.Device} tells whether there is one.
 */
package dev.sluice.gpu;
