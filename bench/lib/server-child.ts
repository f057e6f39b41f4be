import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isParentMessage, type ChildMessage, type LoadTarget } from './protocol.js';

/** What a server entry sets up; everything else about being a bench child lives here. */
export interface BenchServer {
  handler: http.RequestListener;
  /** Options for http.createServer, as the server's production start gives them. */
  serverOptions?: http.ServerOptions;
  targets?: LoadTarget[];
  /** Releases what set-up took (database, temp files); runs once, after the listener closed. */
  close?: () => Promise<void>;
}

/** How long shutdown may take before the child exits anyway (keep-alive sockets, a stuck pool). */
const SHUTDOWN_GRACE_MS = 5_000;

/**
 * Runs the calling module as a server child of bench/run.ts: sets the server up, listens on an
 * ephemeral loopback port, reports it, answers CPU queries, and exits on `stop`, on SIGINT/SIGTERM,
 * or when the parent goes away (so a crashed orchestrator leaves no server behind).
 */
export async function runBenchServer(setup: () => Promise<BenchServer>): Promise<void> {
  if (!process.send) throw new Error('a bench server runs as a child of bench/run.ts (it needs an IPC channel)');
  const send = (message: ChildMessage, sent?: () => void): void => {
    // The channel is gone once the parent exits; there is nobody left to tell.
    if (process.connected) process.send!(message, undefined, {}, () => sent?.());
    else sent?.();
  };

  let bench: BenchServer;
  let server: http.Server;
  try {
    bench = await setup();
    server = http.createServer(bench.serverOptions ?? {}, bench.handler);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
  } catch (err) {
    // IPC sends are asynchronous: exit only once the parent has the reason.
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    await new Promise<void>((resolve) => send({ type: 'failed', message }, resolve));
    process.exit(1);
  }

  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS).unref();
    server.closeAllConnections();
    server.close(() => {
      Promise.resolve(bench.close?.())
        .catch((err: unknown) => console.error('bench server clean-up failed:', err))
        .finally(() => {
          // Close the IPC channel before exiting, so the parent sees a clean exit rather than a broken pipe.
          process.disconnect?.();
          process.exit(0);
        });
    });
  };

  process.on('message', (message: unknown) => {
    if (!isParentMessage(message)) return;
    if (message.type === 'stop') return shutdown();
    const { user, system } = process.cpuUsage();
    send({ type: 'cpu', id: message.id, user, system });
  });
  process.once('disconnect', shutdown);
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  const { port } = server.address() as AddressInfo;
  send({ type: 'ready', port, ...(bench.targets && { targets: bench.targets }) });
}
