/**
 * The writer SPI: what a shuffle writer strategy compiles against, and nothing else of Sluice. A strategy is a
 * {@link dev.sluice.spi.ShuffleWriterFactory} found by {@link java.util.ServiceLoader} (listed in
 * {@code META-INF/services/dev.sluice.spi.ShuffleWriterFactory}); it starts a {@link dev.sluice.spi.ShuffleExecutor}
 * per run, shared by every map task of it, which makes a {@link dev.sluice.spi.ShuffleWriter} per
 * {@link dev.sluice.spi.MapTask}, after Spark's {@code ShuffleExecutorComponents -> ShuffleMapOutputWriter}.
 *
 * <p>The rules a strategy keeps, which the contract kit ({@code sluice-testkit}) checks:
 * <ul>
 *   <li>Records come batch by batch, each batch in increasing partition order; a partition's bytes are the task's
 *       {@link dev.sluice.spi.StreamFormat#streamHeader}, its records' payload bytes in input order, then
 *       {@link dev.sluice.spi.StreamFormat#endOfStream}. A strategy never sees the format or the codec: it moves
 *       bytes that {@link dev.sluice.spi.Payload} makes, on whatever thread it likes.</li>
 *   <li>{@link dev.sluice.spi.ShuffleWriter#commit} publishes the map output atomically and returns it;
 *       {@link dev.sluice.spi.ShuffleWriter#abort} and {@link dev.sluice.spi.ShuffleWriter#close} leave no file and
 *       no memory; every wait is bounded and interruptible, and no failure on a background thread is lost.</li>
 *   <li>Every file goes through {@link dev.sluice.spi.storage.CountedStorage}, and off-heap memory comes from the
 *       executor's {@link dev.sluice.spi.memory.HostAllocator}, so that what a strategy writes, holds and leaves
 *       behind is measured rather than reported.</li>
 *   <li>{@link dev.sluice.spi.ShuffleWriterFactory#check} refuses what cannot run, and
 *       {@link dev.sluice.spi.ShuffleWriterFactory#planMemory} and {@link dev.sluice.spi.ShuffleWriterFactory#planStorage}
 *       say what a run may hold, before anything is created.</li>
 * </ul>
 * No Arrow type and no codec is in this package or below it.
 *
 * <p>Each public type here and below says what it is to a writer, with one of three marks:
 * {@link dev.sluice.spi.WriterImplements} (what a strategy writes: the factory, the executor and the writer, and a
 * few interfaces it implements only to use a facility), {@link dev.sluice.spi.WriterGiven} (what it is handed or
 * writes with) and {@link dev.sluice.spi.EngineOnly} (what the engine uses and a writer may ignore, here because a
 * given type names it).
 */
package dev.sluice.spi;
