package dev.sluice.spi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A type of the SPI that a writer strategy is given or uses as it is: what the engine hands it (its configuration,
 * map task, records and their payloads, storage, host memory, options) and the helpers it may write with (Spark's
 * atomic commit of a map output, sizes, thread factories). A writer calls these; it implements none of them. See
 * {@link WriterImplements}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WriterGiven {}
