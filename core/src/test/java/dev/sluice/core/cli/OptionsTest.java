package dev.sluice.core.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.spi.InvalidParameterException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command-line parser scripts/sluice, scripts/net-send and scripts/spark-bench share. */
class OptionsTest {
    private static Options declared() {
        return new Options()
                .required("out", "DIR", "output directory")
                .optional("tasks", "N", "2", "map tasks")
                .optional("scale", "X", "0.1", "multiplies the size")
                .optional("master", "URL", null, "Spark master")
                .repeatable("conf", "KEY=VALUE", "any setting")
                .flag("fsync", "force the files");
    }

    private static InvalidParameterException refused(Options options, String... args) {
        return assertThrows(InvalidParameterException.class, () -> options.parse(List.of(args)));
    }

    @Test
    void valuesComeSeparatedOrAfterAnEqualsSignAndDefaultsFillTheRest() {
        Options o = declared();
        assertTrue(o.parse(List.of("--out", "d", "--scale=0.5", "--fsync")));
        assertEquals("d", o.string("out"));
        assertEquals(0.5, o.positive("scale"));
        assertEquals(2, o.integer("tasks", 1));
        assertEquals("2", o.string("tasks"));
        assertNull(o.typed("tasks"), "not given");
        assertFalse(o.given("tasks"));
        assertNull(o.string("master"), "no default");
        assertTrue(o.flag("fsync"));
        assertEquals(List.of(), o.values("conf"));
    }

    @Test
    void helpAnywhereStopsTheParse() {
        assertFalse(declared().parse(List.of("--tasks", "3", "--help")));
        assertFalse(declared().parse(List.of("-h")));
    }

    @Test
    void aRepeatableOptionKeepsEveryValueInOrderAndAnotherOptionIsRefusedTheSecondTime() {
        Options o = declared();
        o.parse(List.of("--out", "d", "--conf", "a=1", "--conf=b=2"));
        assertEquals(List.of("a=1", "b=2"), o.values("conf"));
        InvalidParameterException e = refused(declared(), "--out", "d", "--tasks", "3", "--tasks", "4");
        assertEquals("--tasks", e.parameter());
        assertEquals("4", e.value());
        assertEquals("the option once", e.allowed());
    }

    @Test
    void anUnknownOptionIsRefusedNamingItAndEveryOptionThatIsAllowed() {
        InvalidParameterException e = refused(declared(), "--out", "d", "--fast", "yes");
        assertEquals("option", e.parameter());
        assertEquals("--fast", e.value());
        assertEquals("one of --out, --tasks, --scale, --master, --conf, --fsync, --help", e.allowed());
        assertEquals("invalid option '--fast': allowed is one of --out, --tasks, --scale, --master, --conf, --fsync, "
                + "--help", e.getMessage());
        InvalidParameterException positional = refused(declared(), "d");
        assertEquals("argument", positional.parameter());
        assertEquals("d", positional.value());
    }

    @Test
    void aMissingValueARequiredOptionAndAValueOnAFlagAreRefusedNamingTheOption() {
        InvalidParameterException last = refused(declared(), "--out", "d", "--tasks");
        assertEquals("--tasks", last.parameter());
        assertEquals("a value: --tasks N", last.allowed());
        InvalidParameterException beforeOption = refused(declared(), "--tasks", "--out", "d");
        assertEquals("--tasks", beforeOption.parameter());
        InvalidParameterException required = refused(declared(), "--tasks", "3");
        assertEquals("--out", required.parameter());
        assertEquals("a value: --out DIR is required", required.allowed());
        InvalidParameterException flag = refused(declared(), "--out", "d", "--fsync=yes");
        assertEquals("--fsync", flag.parameter());
        assertEquals("yes", flag.value());
        assertEquals("no value (it is a flag)", flag.allowed());
    }

    @Test
    void typedValuesOutsideTheirRangeAreRefusedNamingOptionValueAndRange() {
        for (String[] c : List.of(new String[] {"0", "an integer >= 1"}, new String[] {"two", "an integer >= 1"})) {
            Options o = declared();
            o.parse(List.of("--out", "d", "--tasks", c[0]));
            InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> o.integer("tasks", 1));
            assertEquals("--tasks", e.parameter());
            assertEquals(c[0], e.value());
            assertEquals(c[1], e.allowed());
        }
        Options o = declared();
        o.parse(List.of("--out", "d", "--tasks", "x"));
        assertEquals("an integer", assertThrows(InvalidParameterException.class, () -> o.integer("tasks")).allowed());
        for (String scale : List.of("0", "-1", "NaN", "Infinity", "big")) {
            Options s = declared();
            s.parse(List.of("--out", "d", "--scale", scale));
            InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> s.positive("scale"));
            assertEquals("--scale", e.parameter());
            assertEquals(scale, e.value());
            assertEquals("a number > 0", e.allowed());
        }
    }

    @Test
    void anOptionNeverDeclaredIsAProgrammingErrorNotAUsersOne() {
        Options o = declared();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.string("size"));
        assertFalse(e instanceof InvalidParameterException);
        assertThrows(IllegalArgumentException.class, () -> new Options().flag("x", "a").flag("x", "b"));
    }

    @Test
    void theHelpAlignsEveryOptionContinuesItsLinesAndSaysItsDefault() {
        String help = new Options()
                .required("out", "DIR", "output directory")
                .optional("tasks", "N", "2", "map tasks,\nrun at once")
                .describe(14);
        assertEquals(String.join("\n",
                "  --out DIR   output directory (required)",
                "  --tasks N   map tasks,",
                "              run at once (default: 2)",
                "  --help      print this help and exit",
                ""), help);
        assertTrue(new Options().flag("fsync", "force").describe().startsWith(String.format("%-30s force%n",
                "  --fsync")));
    }
}
