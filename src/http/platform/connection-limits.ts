import type { Server, ServerOptions } from 'node:http';
import type { Config } from '../../config/config.js';

/** What `hub serve` allows one connection, and how many it holds at once. */
export type ConnectionLimits = Pick<
  Config,
  'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'
>;

/**
 * The server options that close a slow client's socket: one that has not sent all its headers
 * within `headersTimeoutMs`, or its whole request within `requestTimeoutMs`, is answered 408 and
 * closed. node:http looks for them every `connectionsCheckingInterval`, which by default is long
 * enough to let a timeout of a few seconds run on for many more; it is set to a fraction of the
 * shorter timeout, so a socket is closed soon after its time is up.
 */
export function slowClientOptions(
  limits: ConnectionLimits,
): Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout' | 'connectionsCheckingInterval'> {
  const shorter = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(shorter / 4))),
  };
}

/**
 * The cap on open connections: past it node:http closes each new socket as soon as it is
 * accepted (`drop`), so a flood of idle or slow sockets cannot exhaust the process's file
 * descriptors while the connections already open are served.
 */
export function capConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
}
