package dev.sluice.testkit.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and docs/ as a reader follows them: every relative link resolves inside the repository (its #anchor to a
 * heading of the page), every docs/ page is reachable from docs/README.md, and the sample strategy that
 * docs/writing-a-strategy.md shows is this module's, as compiled and tested. Here because this module's tests hold
 * that sample; the repository is the module's parent directory.
 */
class DocsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path DOCS = ROOT.resolve("docs");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*$", Pattern.MULTILINE);

    @Test
    void everyRelativeLinkResolvesInsideTheRepository() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String link : links(page)) {
                Path target = target(page, link);
                String anchor = link.contains("#") ? link.substring(link.indexOf('#') + 1) : "";
                if (target == null) {
                    continue;
                }
                if (!target.startsWith(ROOT) || !Files.exists(target)) {
                    broken.add(ROOT.relativize(page) + ": " + link + " (no such file in the repository)");
                } else if (!anchor.isEmpty() && target.toString().endsWith(".md") && !anchors(target).contains(anchor)) {
                    broken.add(ROOT.relativize(page) + ": " + link + " (no such heading in "
                            + ROOT.relativize(target) + ")");
                }
            }
        }
        assertEquals(List.of(), broken, "broken links");
    }

    @Test
    void everyDocsPageIsReachableFromTheIndex() throws IOException {
        Set<Path> reached = new HashSet<>();
        Deque<Path> next = new ArrayDeque<>(List.of(DOCS.resolve("README.md")));
        while (!next.isEmpty()) {
            Path page = next.pop();
            if (!reached.add(page)) {
                continue;
            }
            for (String link : links(page)) {
                Path target = target(page, link);
                if (target != null && target.toString().endsWith(".md") && Files.exists(target)) {
                    next.push(target);
                }
            }
        }
        List<Path> unreached = pages().stream().filter(p -> p.startsWith(DOCS) && !reached.contains(p))
                .map(ROOT::relativize).collect(Collectors.toList());
        assertEquals(List.of(), unreached, "docs/ pages no link leads to from docs/README.md");
    }

    @Test
    void theSampleOnThePageIsTheTestedOne() throws IOException {
        String page = Files.readString(DOCS.resolve("writing-a-strategy.md"), StandardCharsets.UTF_8);
        for (String name : List.of("InMemoryWriterFactory.java", "InMemoryWriterContractTest.java")) {
            Path source = Path.of("src/test/java/dev/sluice/testkit/sample").resolve(name);
            String code = withoutPackageAndImports(Files.readString(source, StandardCharsets.UTF_8));
            assertTrue(page.contains("```java\n" + code + "\n```"),
                    "docs/writing-a-strategy.md does not show " + name + " as it is (without package and imports): "
                            + "copy the class into its java block");
        }
    }

    private static String withoutPackageAndImports(String source) {
        List<String> lines = source.lines().collect(Collectors.toList());
        int last = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("import ") || lines.get(i).startsWith("package ")) {
                last = i;
            }
        }
        return String.join("\n", lines.subList(last + 1, lines.size())).strip();
    }

    /** The README and every page under docs/. */
    private static List<Path> pages() throws IOException {
        try (Stream<Path> files = Files.walk(DOCS)) {
            List<Path> pages = files.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList());
            pages.add(0, ROOT.resolve("README.md"));
            return pages;
        }
    }

    /** Links outside code: fenced blocks and inline code are examples, not links. */
    private static List<String> links(Path page) throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8)
                .replaceAll("(?s)```.*?```", "").replaceAll("`[^`\n]*`", "");
        List<String> links = new ArrayList<>();
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            links.add(m.group(1));
        }
        return links;
    }

    /** The file a relative link names, or null for a web address or a link within the page. */
    private static Path target(Path page, String link) {
        if (link.matches("^[a-z]+:.*")) {
            return null;
        }
        String path = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
        return path.isEmpty() ? page : page.getParent().resolve(path).normalize();
    }

    /** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
    private static Set<String> anchors(Path page) throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8).replaceAll("(?s)```.*?```", "");
        Map<String, Integer> seen = new HashMap<>();
        Set<String> anchors = new HashSet<>();
        Matcher m = HEADING.matcher(text);
        while (m.find()) {
            String slug = m.group(1).replaceAll("\\]\\([^)]*\\)", "").toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }
}
