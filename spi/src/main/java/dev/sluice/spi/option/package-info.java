/**
 * A strategy's options: each declared once as a {@link dev.sluice.spi.option.StrategyOption} with its default, its
 * meaning, and where upstream sets the value it models; given on the command line and in JMH as a spec,
 * {@code NAME:key=value:key=value} ({@link dev.sluice.spi.option.SpecParser}). The rules: a strategy that models an
 * upstream design defaults every option to upstream's value at the design's commit, and names the source; a value
 * that is not allowed is refused with the parameter, the spec, the option, the value and what is allowed.
 */
package dev.sluice.spi.option;
