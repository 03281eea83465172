package dev.sluice.gpu;

import ai.rapids.cudf.ColumnVector;
import ai.rapids.cudf.PartitionedTable;
import ai.rapids.cudf.Table;

/** A batch's rows grouped by partition on the device, as {@link GpuPartitioning} describes. */
interface DevicePartitioner {
    /** {@code keyColumn} is the key's index (hash only); {@code startPartition} round robin's start. */
    PartitionedTable partition(Table batch, int keyColumn, int numPartitions, int startPartition);

    DevicePartitioner HASH = (batch, keyColumn, numPartitions, startPartition) -> {
        try (ColumnVector ids = DeviceWords.partitionIds(batch.getColumn(keyColumn), numPartitions)) {
            return batch.partition(ids, numPartitions);
        }
    };

    DevicePartitioner ROUND_ROBIN = (batch, keyColumn, numPartitions, startPartition) ->
            batch.roundRobinPartition(numPartitions, startPartition);
}
