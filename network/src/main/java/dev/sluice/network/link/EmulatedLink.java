package dev.sluice.network.link;

import dev.sluice.spi.InvalidParameterException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A network namespace made for one run, whose own loopback carries the run's traffic, rate-limited by a {@code tbf}
 * qdisc for an emulated {@link LinkSpec}. Only the namespace's {@code lo} is touched: its traffic stays on 127.0.0.1
 * inside it, and nothing of the machine's own namespaces, interfaces or settings changes. Deleting the namespace
 * removes its loopback and the qdisc with it.
 *
 * <p>The owner (the process that made it) starts the measured JVM inside it with {@link #command}. The namespace is
 * recorded in the temp directory's {@code sluice-links/} before it is made, and removed on {@link #close}, which a
 * shutdown hook also runs on SIGINT and SIGTERM; after SIGKILL the record stays and {@link #cleanUpAbandoned}
 * ({@code scripts/sluice link cleanup}) removes the namespace of every record whose process is gone. Making one needs
 * root; without it the run is refused, with the reason, as an invalid parameter.
 */
public final class EmulatedLink implements AutoCloseable {
    /** Set in the environment of a process started in a link's namespace: the namespace's name. */
    public static final String NETNS_ENV = "SLUICE_LINK_NETNS";
    public static final String PREFIX = "sluice-link-";
    private static final AtomicInteger COUNT = new AtomicInteger();

    private final String name;
    private final Path record;
    private final Thread hook;
    private LinkSpec spec;
    private boolean closed;

    private EmulatedLink(String name, Path record, LinkSpec spec) {
        this.name = name;
        this.record = record;
        this.spec = spec;
        this.hook = new Thread(this::onShutdown, "sluice-link-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Why this machine cannot make a link, or null where it can. */
    public static String unavailable() {
        if (!Commands.root()) {
            return "root (a network namespace and a qdisc on its loopback need CAP_NET_ADMIN and CAP_SYS_ADMIN)";
        }
        if (Commands.program("ip") == null) {
            return "the ip command (iproute2)";
        }
        if (Commands.program("tc") == null) {
            return "the tc command (iproute2)";
        }
        return null;
    }

    /**
     * Makes a namespace with its loopback up and, for an emulated {@code spec}, limited to its rate. Refused with
     * {@link InvalidParameterException} (parameter {@code parameter}) where the machine cannot.
     */
    public static EmulatedLink create(String parameter, LinkSpec spec) throws IOException {
        String missing = unavailable();
        if (missing != null) {
            throw new InvalidParameterException(parameter, spec.text(), "native here: an emulated link needs "
                    + missing);
        }
        Path dir = recordDirectory();
        Files.createDirectories(dir);
        String name = PREFIX + ProcessHandle.current().pid() + "-" + COUNT.incrementAndGet();
        Path record = dir.resolve(name);
        Files.writeString(record, "pid=" + ProcessHandle.current().pid() + "\nnetns=" + name + "\nspec="
                + spec.text() + "\n", StandardCharsets.UTF_8);
        EmulatedLink link = new EmulatedLink(name, record, spec);
        try {
            Commands.run("ip", "netns", "add", name);
            Commands.run("ip", "netns", "exec", name, "ip", "link", "set", "lo", "up");
            if (!spec.isNative()) {
                link.tc("add", spec);
            }
            return link;
        } catch (IOException | RuntimeException e) {
            link.close();
            throw e;
        }
    }

    private void tc(String verb, LinkSpec to) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", name, "tc", "qdisc", verb, "dev", "lo",
                "root"));
        command.addAll(List.of(to.tbfArguments()));
        Commands.run(command);
    }

    /** Sets the namespace's loopback to {@code to}: a tbf of its rate, or none for native. */
    public synchronized void set(LinkSpec to) throws IOException {
        if (closed) {
            throw new IllegalStateException("the link " + name + " is closed");
        }
        if (to.isNative()) {
            if (!spec.isNative()) {
                Commands.run("ip", "netns", "exec", name, "tc", "qdisc", "del", "dev", "lo", "root");
            }
        } else {
            tc("replace", to);
        }
        spec = to;
    }

    /**
     * For a process already inside a link's namespace (a JMH fork): sets its loopback to {@code to}. Refused unless
     * {@value #NETNS_ENV} names the namespace this process is in, as {@code ip netns identify} says, so that it never
     * touches the loopback of a namespace the run did not make.
     */
    public static void setInside(LinkSpec to) throws IOException {
        String ns = insideNamespace();
        if (ns == null) {
            throw new IllegalStateException("link " + to.text() + " needs this JVM inside a namespace the run made ("
                    + NETNS_ENV + " is not set, or names another namespace than this process's)");
        }
        String current = Commands.run("tc", "qdisc", "show", "dev", "lo", "root");
        boolean hasTbf = current.contains("tbf");
        if (to.isNative()) {
            if (hasTbf) {
                Commands.run("tc", "qdisc", "del", "dev", "lo", "root");
            }
            return;
        }
        List<String> command = new ArrayList<>(List.of("tc", "qdisc", "replace", "dev", "lo", "root"));
        command.addAll(List.of(to.tbfArguments()));
        Commands.run(command);
    }

    /** The namespace this process runs in where {@value #NETNS_ENV} names it and it is one of ours; else null. */
    public static String insideNamespace() {
        String ns = System.getenv(NETNS_ENV);
        if (ns == null || !ns.startsWith(PREFIX)) {
            return null;
        }
        try {
            String identified = Commands.run("ip", "netns", "identify", Long.toString(ProcessHandle.current().pid()));
            return identified.equals(ns) ? ns : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The namespace's name. */
    public String name() {
        return name;
    }

    public synchronized LinkSpec spec() {
        return spec;
    }

    /** {@code command} run inside the namespace (through {@code ip netns exec}, which execs it: the same pid). */
    public List<String> command(List<String> command) {
        List<String> out = new ArrayList<>(List.of("ip", "netns", "exec", name));
        out.addAll(command);
        return out;
    }

    /** Whether the namespace exists now. */
    public static boolean exists(String name) throws IOException {
        for (String line : Commands.run("ip", "netns", "list").split("\n")) {
            if (line.split(" ")[0].equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** Removes the namespace (its loopback and qdisc with it) and the record; safe to call twice. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is what called close
        }
        List<String> problems = undo(name);
        if (problems.isEmpty()) {
            Files.deleteIfExists(record);
        } else {
            throw new IOException("the link " + name + " was not fully removed (its record " + record + " stays for "
                    + "'scripts/sluice link cleanup'): " + String.join("; ", problems));
        }
    }

    private void onShutdown() {
        try {
            close();
        } catch (IOException | RuntimeException e) {
            System.err.println("sluice: " + e.getMessage());
        }
    }

    /** Ends what still runs in the namespace (only processes the run started in it) and deletes it. */
    private static List<String> undo(String name) {
        List<String> problems = new ArrayList<>();
        try {
            if (!exists(name)) {
                return problems;
            }
            String pids = Commands.run("ip", "netns", "pids", name);
            for (String pid : pids.split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(p -> {
                        p.destroyForcibly();
                        p.onExit().orTimeout(10, java.util.concurrent.TimeUnit.SECONDS).exceptionally(t -> p).join();
                    });
                }
            }
            Commands.run("ip", "netns", "del", name);
        } catch (IOException | RuntimeException e) {
            problems.add("removing namespace " + name + ": " + e.getMessage());
        }
        return problems;
    }

    static Path recordDirectory() {
        return Path.of(System.getProperty("java.io.tmpdir"), "sluice-links");
    }

    private static Map<String, String> read(Path record) throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                fields.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return fields;
    }

    private static List<Path> records() throws IOException {
        Path dir = recordDirectory();
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(PREFIX)).sorted().toList();
        }
    }

    /**
     * Removes the namespace of every record whose process is gone (a run killed with SIGKILL), and the record;
     * returns how many; links of running processes are left alone. Each one removed is said on {@code log}.
     */
    public static int cleanUpAbandoned(PrintStream log) throws IOException {
        int undone = 0;
        for (Path record : records()) {
            Map<String, String> fields = read(record);
            long pid = Long.parseLong(fields.getOrDefault("pid", "-1"));
            String name = fields.getOrDefault("netns", record.getFileName().toString());
            if (pid == ProcessHandle.current().pid() || Commands.alive(pid) || !name.startsWith(PREFIX)) {
                continue;
            }
            List<String> problems = undo(name);
            if (!problems.isEmpty()) {
                log.println("sluice: could not remove the link of dead process " + pid + ": "
                        + String.join("; ", problems));
                continue;
            }
            Files.deleteIfExists(record);
            log.println("sluice: removed the link " + name + " of dead process " + pid + " (" + fields.get("spec")
                    + ")");
            undone++;
        }
        return undone;
    }

    /** The links recorded now, by any process, each with whether its process runs. */
    public static List<String> recorded() throws IOException {
        List<String> all = new ArrayList<>();
        for (Path record : records()) {
            Map<String, String> fields = read(record);
            long pid = Long.parseLong(fields.getOrDefault("pid", "-1"));
            all.add(fields.get("netns") + " " + fields.get("spec") + " of process " + pid
                    + (Commands.alive(pid) ? " (its process is running)" : " (its process is gone)"));
        }
        return all;
    }
}
