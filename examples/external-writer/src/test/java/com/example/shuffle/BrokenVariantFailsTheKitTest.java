package com.example.shuffle;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.sluice.testkit.ShuffleWriterContract;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** A test of the kit: it catches a writer that leaves its temp file on abort, and says so. */
class BrokenVariantFailsTheKitTest {
    /** The kit run on the broken variant; not a test of its own (surefire runs only *Test classes). */
    static final class LeakyContract extends ShuffleWriterContract {
        @Override
        protected String strategy() {
            return "celeborn-push-leaky";
        }

        @Override
        protected MemoryLimit memoryLimit(String variant) {
            return MemoryLimit.ADVISORY;
        }
    }

    @Test
    void theKitFailsAWriterThatLeavesItsPushFileOnAbortNamingTheLeftFile() {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(LeakyContract.class)).build(),
                listener);
        TestExecutionSummary summary = listener.getSummary();
        List<String> failures = summary.getFailures().stream()
                .map(f -> f.getTestIdentifier().getDisplayName() + ": " + f.getException().getMessage())
                .collect(Collectors.toList());
        assertTrue(summary.getTestsSucceededCount() > 0, "the kit passed nothing of the broken variant: " + failures);
        assertTrue(!failures.isEmpty(), "the kit passed a writer that leaves its push file on abort");
        for (String failure : failures) {
            assertTrue(failure.contains("files left behind") && failure.contains("temp_shuffle_"),
                    "a failure that does not name the file left behind: " + failure);
        }
        assertTrue(failures.stream().anyMatch(f -> f.contains("aborted")),
                "the abort check did not catch it: " + failures);
    }
}
