package dev.sluice.core.strategy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Named combinations of a strategy's options: a preset is written where a strategy name goes, and options after it
 * override the preset's ({@code consolidated-best:pool=false}). Each one says why it is what it is; docs/tuning.md has
 * the measurements.
 */
public final class Presets {
    /** The best Sluice knows for consolidation: every option that docs/tuning.md's ablation shows to pay. */
    public static final String CONSOLIDATED_BEST = "consolidated-best";
    /** spark-rapids' consolidating writer as it is upstream today, after #15208. */
    public static final String UPSTREAM_HEAD = "upstream-head";

    private static final Map<String, String[]> PRESETS = new LinkedHashMap<>();

    static {
        PRESETS.put(CONSOLIDATED_BEST, new String[] {
                "buffered:partial=records:pool=true:recordBuffer=direct:merge=gather:merger=cooperative",
                "buffered's pipeline with records compressed into an executor-wide pool of reused, unzeroed buffers, "
                        + "which the batch's partial links instead of copying; commit and merge with gathering writes; "
                        + "cooperative mergers (docs/tuning.md)",
                "none: Sluice's options, measured in docs/tuning.md"});
        PRESETS.put(UPSTREAM_HEAD, new String[] {
                "async:merger=cooperative:compression=pool",
                "PR-14090's writer (32 MiB partials grown by prediction, merged at commit) with what #15208 changed: "
                        + "cooperative mergers, and records compressed by any thread of a shared writer pool instead "
                        + "of a slot pinned per partition; the merger pool has as many threads as the writer pool",
                "spark-rapids 796ef8b3ce (RapidsConf.scala: partialFileBufferInitialSize 32m, skipMerge false) and "
                        + "the description of #15208, \"Prevent multithreaded shuffle merger deadlock\", merged in "
                        + "NVIDIA/cudf-spark (spark-rapids renamed); its code was not available to read"});
    }

    private Presets() {}

    /** Preset names, in the order they are listed. */
    public static Set<String> names() {
        return PRESETS.keySet();
    }

    /** The spec a preset stands for, e.g. {@code buffered:partial=chunked:...}. */
    public static String expansion(String name) {
        return PRESETS.get(name)[0];
    }

    public static String description(String name) {
        return PRESETS.get(name)[1];
    }

    /** Where the preset's choices come from: upstream's code and commit, or Sluice's measurements. */
    public static String source(String name) {
        return PRESETS.get(name)[2];
    }

    /**
     * {@code pieces} (a name and its {@code key=value} options) with a preset name replaced by its strategy and options;
     * an option given after the preset replaces the preset's. Anything else is returned as it is.
     */
    static List<String> expand(List<String> pieces) {
        String[] preset = PRESETS.get(pieces.get(0));
        if (preset == null) {
            return pieces;
        }
        Set<String> given = new HashSet<>();
        for (String piece : pieces.subList(1, pieces.size())) {
            given.add(piece.split("=", 2)[0].trim());
        }
        List<String> expanded = new ArrayList<>();
        for (String piece : Arrays.asList(preset[0].split(":"))) {
            if (expanded.isEmpty() || !given.contains(piece.split("=", 2)[0])) {
                expanded.add(piece);
            }
        }
        expanded.addAll(pieces.subList(1, pieces.size()));
        return expanded;
    }
}
