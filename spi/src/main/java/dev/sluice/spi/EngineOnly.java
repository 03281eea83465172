package dev.sluice.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A type of the SPI that no writer strategy needs: the engine (the command line, the benchmarks, Spark's manager, the
 * contract kit) uses it. It is in the SPI only because a type a writer is given names it (the counters and the fault
 * hook of {@link dev.sluice.spi.storage.CountedStorage}, the refusal {@link WriterConfig}'s builder throws) or needs
 * it inside this module; a writer may ignore it. See {@link WriterImplements}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface EngineOnly {}
