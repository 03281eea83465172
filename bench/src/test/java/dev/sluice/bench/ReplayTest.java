package dev.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replay of a budget policy on synthetic waves: a noisy cheap size and a quiet costly one. */
class ReplayTest {
    /** {@code n} rounds of one comparison around {@code ratio}, alternating {@code ±spread} in the ratio. */
    private static List<double[]> rounds(int n, double ratio, double spread) {
        List<double[]> out = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            out.add(new double[] {ratio * (1 + (r % 2 == 0 ? spread : -spread) * (1 + 0.1 * (r % 3)))});
        }
        return out;
    }

    private static Replay.Run run(double referenceSeconds) {
        // Quiet and costly: 0.80 within 0.5%, a minute a round. Noisy and cheap: 0.90 within 15%, a second a round.
        Replay.Size quiet = new Replay.Size("quiet", rounds(30, 0.80, 0.005), 60, 10);
        Replay.Size noisy = new Replay.Size("noisy", rounds(30, 0.90, 0.15), 1, 2);
        return new Replay.Run("synthetic", List.of(quiet, noisy), 5, referenceSeconds, 600);
    }

    @Test
    void theQuietCostlySizeIsDecidedByItsFirstChunkAndTheBudgetGoesToTheNoisyCheapOne() {
        Replay.Outcome o = Replay.replay(run(0), new Replay.Policy("main", 3, true), 1);
        assertEquals(2, o.comparisons());
        assertEquals(3, o.pairs().get("quiet"), "its first chunk decides it: " + o.pairs());
        assertTrue(o.pairs().get("noisy") > 3, "the rest of the budget goes to the noisy size: " + o.pairs());
        assertEquals(2, o.decidedT(), "both decided: " + o);
        assertTrue(o.seconds() <= 600, "within the budget: " + o.seconds());
        assertEquals(0, o.drawn(), "no more rounds than the run took");
    }

    @Test
    void referencesSpentInTheBudgetLeaveLessForThePairs() {
        // 420 s of raw writes and floors: the first chunks still run (190 s and 5 s), then nothing is affordable.
        Replay.Outcome spent = Replay.replay(run(420), new Replay.Policy("as run", 3, true), 1);
        Replay.Outcome cached = Replay.replay(run(420), new Replay.Policy("cached", 3, false), 1);
        assertEquals(3, spent.pairs().get("noisy"), "only its first chunk: " + spent.pairs());
        assertEquals(1, spent.decidedT(), "the noisy size undecided after 3 pairs: " + spent);
        assertEquals(2, cached.decidedT(), "with the references cached both are decided: " + cached);
    }

    @Test
    void roundsPastTheRunsOwnAreDrawnAndSaidSo() {
        Replay.Size few = new Replay.Size("few", rounds(3, 0.90, 0.15), 1, 0);
        Replay.Run run = new Replay.Run("few", List.of(few), 0, 0, 8); // the first chunk, then nothing affordable
        Replay.Outcome o = Replay.replay(run, new Replay.Policy("first chunk 8", 8, true), 7);
        assertEquals(8, o.pairs().get("few"));
        assertEquals(5, o.drawn(), "5 rounds drawn from the run's 3");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Replay.print(List.of(run), List.of(new Replay.Policy("first chunk 8", 8, true)),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(table.contains("| few | first chunk 8 | "), table);
        assertTrue(table.contains("| {few=8} | 5 |"), table);
    }
}
