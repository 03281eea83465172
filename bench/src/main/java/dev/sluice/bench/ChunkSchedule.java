package dev.sluice.bench;

import dev.sluice.report.RunDirectory;
import dev.sluice.report.StoppingRule;
import java.io.IOException;

/**
 * Which paired configuration gets the next chunk of rounds, and how many; or that one has stopped, and why. The runner
 * ({@link BenchRunner}) goes through the plan in order; on reaching a paired configuration it calls
 * {@link #reach}, then runs the chunks {@link #next} names, in any configuration reached so far, until it says
 * {@link Step.Kind#DONE}. One object decides, so that another allocation of a run's time among its sizes replaces it
 * whole: under a time budget scripts/bench.sh runs {@link DecidingSchedule} (chunks where they decide the most per
 * second), without one {@link WeightedShares} (each size's rounds, once).
 */
public interface ChunkSchedule {
    /**
     * The runner has reached paired configuration {@code config}, {@code elapsed} seconds into the run, with the
     * configurations before it, of {@code doneWeight} in all, done; returns a line for the run's progress, or null.
     */
    String reach(RunDirectory.Config config, long elapsed, long doneWeight);

    /** The next step, {@code elapsed} seconds into the run; a stop is written to the run's {@code stops/} first. */
    Step next(long elapsed) throws IOException;

    /** A chunk to run, a configuration that stopped, or the end of the chunks for now. */
    final class Step {
        public enum Kind { CHUNK, STOP, DONE }

        public final Kind kind;
        /** The configuration it concerns; null for {@link Kind#DONE}. */
        public final RunDirectory.Config config;
        /** {@link Kind#CHUNK}: the chunk's number, from 1, and its rounds. */
        public final int chunk;
        public final int rounds;
        /** {@link Kind#STOP}: why. */
        public final StoppingRule.Decision decision;

        private Step(Kind kind, RunDirectory.Config config, int chunk, int rounds, StoppingRule.Decision decision) {
            this.kind = kind;
            this.config = config;
            this.chunk = chunk;
            this.rounds = rounds;
            this.decision = decision;
        }

        static Step chunk(RunDirectory.Config config, int chunk, int rounds) {
            return new Step(Kind.CHUNK, config, chunk, rounds, null);
        }

        static Step stop(RunDirectory.Config config, StoppingRule.Decision decision) {
            return new Step(Kind.STOP, config, 0, 0, decision);
        }

        static Step done() {
            return new Step(Kind.DONE, null, 0, 0, null);
        }
    }
}
