package dev.sluice.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A type of the SPI that a writer strategy implements. Every strategy implements three:
 * {@link ShuffleWriterFactory}, {@link ShuffleExecutor} and {@link ShuffleWriter}; the others so marked it implements
 * only to use what they belong to: a segment of a {@link dev.sluice.spi.storage.SegmentCatalog}, a listener of a
 * child {@link dev.sluice.spi.memory.HostAllocator}, the alternatives of an option
 * ({@link dev.sluice.spi.option.Choice}). Each public type of the SPI carries exactly one of this,
 * {@link WriterGiven} and {@link EngineOnly}, so that a writer's author reads from the type (and its Javadoc) what it
 * has to write, what it is handed, and what it can ignore.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WriterImplements {}
