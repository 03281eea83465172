package dev.sluice.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class OutlineTest {
    private static String write(Outline outline) {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        outline.write(out);
        out.flush();
        return text.toString();
    }

    @Test
    void sectionsAreNumberedInTheOrderTheyAreAddedAndReferableBeforeTheyAreWritten() {
        for (boolean paired : new boolean[] {false, true}) {
            Outline outline = new Outline();
            outline.chapter("Summary", out -> out.println("see " + outline.number("precision")));
            outline.chapter("Results", out -> { }).section("charts", "Charts", out -> out.println("charts"));
            if (paired) {
                outline.section("paired", "Paired", out -> out.println("pairs"));
            }
            outline.section("precision", "Precision", out -> out.println("waves"));
            String precision = paired ? "2.3" : "2.2";
            assertEquals(precision, outline.number("precision"));
            assertEquals("## 1. Summary\n\nsee " + precision + "\n## 2. Results\n\n### 2.1 Charts\n\ncharts\n"
                    + (paired ? "### 2.2 Paired\n\npairs\n" : "") + "### " + precision + " Precision\n\nwaves\n",
                    write(outline).replace(System.lineSeparator(), "\n"));
        }
    }

    @Test
    void refusesASectionOutsideAChapterAnUnknownKeyAndATakenOne() {
        Outline outline = new Outline();
        assertThrows(IllegalStateException.class, () -> outline.section("a", "A", out -> { }));
        outline.chapter("One", out -> { }).section("a", "A", out -> { });
        assertThrows(IllegalArgumentException.class, () -> outline.section("a", "Again", out -> { }));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> outline.number("b"));
        assertEquals("no section 'b': the outline has [One, a]", e.getMessage());
    }
}
