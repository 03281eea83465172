package dev.sluice.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Concatenates JMH JSON results (one per configuration run) into one. */
final class MergeResults {
    private MergeResults() {}

    static void merge(Path out, List<Path> inputs) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode all = json.createArrayNode();
        for (Path in : inputs) {
            JsonNode node = json.readTree(in.toFile());
            if (node == null || !node.isArray()) {
                throw new IOException(in + " is not a JMH JSON result");
            }
            node.forEach(all::add);
        }
        json.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), all);
    }
}
