package dev.sluice.gpu;

import ai.rapids.cudf.Cuda;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether this machine can run the device side, and if not, why: first {@code /dev/nvidia0} (without it, cuDF's
 * native library is not even loaded, which saves extracting its 528 MB), then cuDF's own
 * {@code Cuda.isEnvCompatibleForTesting()} (a device, and a driver new enough for the jar's CUDA).
 */
public final class Device {
    private static final Path NVIDIA0 = Path.of("/dev/nvidia0");

    private Device() {}

    /** Empty when a GPU is usable; otherwise the reason it is not. */
    public static Optional<String> unavailable() {
        if (!Files.exists(NVIDIA0)) {
            return Optional.of("no GPU: " + NVIDIA0 + " does not exist on this machine");
        }
        try {
            if (!Cuda.isEnvCompatibleForTesting()) {
                return Optional.of("no usable GPU: cuDF's Cuda.isEnvCompatibleForTesting() is false (no device, or "
                        + "a driver older than the cudf jar's CUDA needs)");
            }
        } catch (NoClassDefFoundError e) {
            return Optional.of("cudf-java is not on the class path (" + e.getMessage() + "); docs/gpu.md says how to "
                    + "run with it");
        } catch (LinkageError e) {
            return Optional.of("cuDF's native library did not load: " + e);
        }
        return Optional.empty();
    }

    /** Throws, with the reason, where no GPU is usable. */
    public static void require(String what) {
        unavailable().ifPresent(reason -> {
            throw new IllegalStateException(what + " needs a GPU: " + reason);
        });
    }
}
