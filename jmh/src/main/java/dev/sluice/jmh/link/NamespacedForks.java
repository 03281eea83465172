package dev.sluice.jmh.link;

import dev.sluice.core.run.BenchmarkParam;
import dev.sluice.network.link.EmulatedLink;
import dev.sluice.network.link.LinkSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Runs a JMH run's forks inside one network namespace made for the run ({@link EmulatedLink}), so that a benchmark
 * with an emulated {@code link} parameter measures the namespace's rate-limited loopback: JMH is given a {@code jvm}
 * that is a script starting the real JVM with {@code ip netns exec}, and with {@link NamespacedFork} as its main
 * class. Each fork sets its own namespace's loopback to its {@code link} (forks run one at a time), so one run covers
 * several links. Owns the namespace (removed on close, on SIGINT and SIGTERM by the link's hook, and by
 * {@code scripts/sluice link cleanup} after SIGKILL), the Unix socket JMH's link is relayed over, and the script.
 */
public final class NamespacedForks implements AutoCloseable {
    static final String SOCKET_ENV = "SLUICE_LINK_SOCKET";

    private final EmulatedLink link;
    private final Path dir;
    private final Path socket;
    private final Path script;
    private final ServerSocketChannel server;
    /** Removes the script and socket on SIGINT and SIGTERM (the link's own hook removes the namespace). */
    private final Thread hook;

    private NamespacedForks(EmulatedLink link, Path dir, Path socket, Path script, ServerSocketChannel server) {
        this.link = link;
        this.dir = dir;
        this.socket = socket;
        this.script = script;
        this.server = server;
        this.hook = new Thread(() -> deleteQuietly(dir), "sluice-forks-teardown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Makes the namespace (refused, as an invalid {@code link}, where the machine cannot) and the fork launcher. */
    public static NamespacedForks open(String realJvm) throws IOException {
        EmulatedLink link = EmulatedLink.create(BenchmarkParam.LINK.key(), LinkSpec.nativeLink());
        Path dir = null;
        ServerSocketChannel server = null;
        try {
            dir = Files.createTempDirectory("sluice-forks-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path socket = dir.resolve("jmh.sock");
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            Path script = dir.resolve("java");
            Files.writeString(script, script(link.name(), socket, realJvm), StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
            NamespacedForks forks = new NamespacedForks(link, dir, socket, script, server);
            forks.accept();
            return forks;
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            if (dir != null) {
                deleteQuietly(dir);
            }
            link.close();
            throw e;
        }
    }

    /** The launcher: JMH's fork command line, its main class swapped, run inside the namespace. */
    private static String script(String netns, Path socket, String realJvm) {
        return "#!/usr/bin/env bash\n"
                + "# Made by Sluice's benchmarks.jar for one run: starts a JMH fork inside the run's network namespace.\n"
                + "set -euo pipefail\n"
                + "args=(\"$@\")\n"
                + "n=${#args[@]}\n"
                + "if (( n >= 3 )) && [[ ${args[n-3]} == org.openjdk.jmh.runner.ForkedMain ]]; then\n"
                + "  args[n-3]=" + NamespacedFork.class.getName() + "\n"
                + "fi\n"
                + "export " + EmulatedLink.NETNS_ENV + "=" + quote(netns) + " " + SOCKET_ENV + "=" + quote(socket.toString())
                + "\n"
                + "exec ip netns exec " + quote(netns) + " " + quote(realJvm) + " ${args[@]+\"${args[@]}\"}\n";
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Relays each fork's JMH link from the Unix socket to the host's JMH on the machine's loopback. */
    private void accept() {
        Thread acceptor = new Thread(() -> {
            while (server.isOpen()) {
                try {
                    SocketChannel fork = server.accept();
                    ByteBuffer header = ByteBuffer.allocate(4);
                    while (header.hasRemaining()) {
                        if (fork.read(header) < 0) {
                            throw new IOException("a fork closed its link before saying JMH's port");
                        }
                    }
                    Socket jmh = new Socket(InetAddress.getLoopbackAddress(), header.flip().getInt());
                    Relay.pipe("sluice-host-link", jmh.getInputStream(), jmh.getOutputStream(), fork, jmh);
                } catch (IOException e) {
                    if (server.isOpen()) {
                        System.err.println("sluice: relaying a fork's JMH link failed: " + e);
                    }
                }
            }
        }, "sluice-host-link-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The {@code jvm} to give JMH. */
    public String jvm() {
        return script.toString();
    }

    public String namespace() {
        return link.name();
    }

    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // shutting down: the hook removes the files
        }
        try {
            server.close();
        } finally {
            try {
                deleteQuietly(dir);
            } finally {
                link.close();
            }
        }
    }

    private static void deleteQuietly(Path dir) {
        for (Path p : new Path[] {dir.resolve("java"), dir.resolve("jmh.sock"), dir}) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                System.err.println("sluice: could not remove " + p + ": " + e.getMessage());
            }
        }
    }
}
