// The fluid model's column for the seed's experiment on the seed's balance (docs/balance.md), from FluidDisk:
//   jshell --class-path core/target/classes:spi/target/classes docs/runs/balance/fluid-model.jsh
// One map task on a slot of the seed's node (seed-ssd, per slot): its disk R = the balance times its task rate r, its
// dirty cache D; per-batch writes every byte twice (2S at 2r: the second copy as fast as the first is made), buffered
// once (S at r). Only r's ratio to R matters, so r = 1 byte per second; S is the seed's shuffle bytes per map task.
import dev.sluice.core.device.DeviceProfile;
import dev.sluice.core.device.FluidDisk;
import dev.sluice.core.input.DataSize;
var profile = DeviceProfile.find(DeviceProfile.SEED_SSD);
double r = 1.0;
var disk = new FluidDisk(profile.balance() * r, profile.dirtyPerSlot());
System.out.printf("seed-ssd per slot: balance %.4f, dirty cache %.3f GB%n", profile.balance(), profile.dirtyPerSlot() / 1e9);
for (DataSize size : DataSize.values()) {
    if (size == DataSize.TINY) continue;
    double s = size.bytes();
    double perBatch = disk.seconds(java.util.List.of(new FluidDisk.Writer(2 * s, 2 * r)));
    double buffered = disk.seconds(java.util.List.of(new FluidDisk.Writer(s, r)));
    System.out.printf("%s: per-batch %.4g s, buffered %.4g s at 1 B/s: buffered's improvement %+.1f%%%n",
            size.label(), perBatch, buffered, 100 * (1 - buffered / perBatch));
}
/exit
