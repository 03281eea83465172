// The fluid model with each run's own figures (docs/balance.md, "The seed's experiment on the final fluid device"):
//   jshell --class-path core/target/classes:spi/target/classes docs/runs/balance/seed-auto/own-figures.jsh
// Two tasks at once on one device: per-batch writes every byte twice (2S at 2r each), buffered once (S at r), r the
// run's task rate (per-batch's at small), S a task's map output at each size, the device its rate R and cache D; and
// buffered as it works, holding its output until the task commits and then writing it at once.
// The harness: seed-auto's forks (task rate 280.7 MB/s, device 434.4 MB/s and 523 MB; S: each size's
// wave.dataBytesPerTask from the run's log). Spark: seed-ssd-queue (20.9 MB/s, 32.3 MB/s and 523 MB; S: half of each
// size's shuffle bytes, 2 tasks).
import dev.sluice.core.device.FluidDisk;
import java.util.List;
void model(String harness, double r, double rate, double dirty, String[] sizes, double[] s) {
    var disk = new FluidDisk(rate, dirty);
    for (int i = 0; i < sizes.length; i++) {
        double perBatch = disk.seconds(List.of(new FluidDisk.Writer(2 * s[i], 2 * r), new FluidDisk.Writer(2 * s[i], 2 * r)));
        double buffered = disk.seconds(List.of(new FluidDisk.Writer(s[i], r), new FluidDisk.Writer(s[i], r)));
        // Buffered as it works: its map output held in memory while the task makes it (S/r), then written at once
        // (here at 100 GB/s, as fast as the cache takes it) when the task commits.
        double burst = s[i] / r + disk.seconds(List.of(new FluidDisk.Writer(s[i], 1e11), new FluidDisk.Writer(s[i],
                1e11)));
        System.out.printf("%s %s: S %.1f MB, per-batch %.2f s, buffered %.2f s (%+.1f%%), buffered writing at commit "
                + "%.2f s (%+.1f%%)%n", harness, sizes[i], s[i] / 1e6, perBatch, buffered,
                100 * (1 - buffered / perBatch), burst, 100 * (1 - burst / perBatch));
    }
}
String[] sizes = {"small", "medium", "large", "xlarge", "xxlarge"};
model("harness", 280.7e6, 434.4e6, 523e6, sizes, new double[] {91043831, 180823235, 265270709, 352621307, 437768283});
double mib = 1 << 20;
model("spark", 20.9e6, 32.3e6, 523e6, sizes, new double[] {121.5 * mib / 2, 242.7 * mib / 2, 357.0 * mib / 2,
        477.0 * mib / 2, 597.6 * mib / 2});
/exit
