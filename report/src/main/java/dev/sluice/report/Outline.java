package dev.sluice.report;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Markdown document's numbered sections: chapters ({@code ## 1. Title}) and their sections ({@code ### 1.2 Title}),
 * numbered in the order they are added, so that a section present in one report and not in another (a paired run's)
 * moves the numbers after it, and text anywhere in the document can refer to a section by its number before the
 * section is written.
 */
final class Outline {
    /** What a section writes under its heading. */
    interface Body {
        void write(PrintWriter out);
    }

    private static final class Section {
        final String heading;
        final Body body;

        Section(String heading, Body body) {
            this.heading = heading;
            this.body = body;
        }
    }

    private final List<Section> sections = new ArrayList<>();
    private final Map<String, String> numbers = new LinkedHashMap<>();
    private int chapter;
    private int section;

    /** A chapter, {@code ## N. title}, and what it writes before its first section. */
    Outline chapter(String title, Body body) {
        chapter++;
        section = 0;
        numbers.put(title, String.valueOf(chapter));
        sections.add(new Section("## " + chapter + ". " + title, body));
        return this;
    }

    /** A section of the last chapter, {@code ### N.M title}; {@code key} names it for {@link #number}. */
    Outline section(String key, String title, Body body) {
        if (chapter == 0) {
            throw new IllegalStateException("section '" + title + "' before any chapter: a section needs a chapter");
        }
        section++;
        String number = chapter + "." + section;
        if (numbers.putIfAbsent(key, number) != null) {
            throw new IllegalArgumentException("section key '" + key + "' is taken: keys must be unique");
        }
        sections.add(new Section("### " + number + " " + title, body));
        return this;
    }

    /** The number of the section (or chapter) named {@code key}, e.g. "3.5". */
    String number(String key) {
        String n = numbers.get(key);
        if (n == null) {
            throw new IllegalArgumentException("no section '" + key + "': the outline has " + numbers.keySet());
        }
        return n;
    }

    /** Every heading, a blank line, and its body, in order. */
    void write(PrintWriter out) {
        for (Section s : sections) {
            out.println(s.heading);
            out.println();
            s.body.write(out);
        }
    }
}
