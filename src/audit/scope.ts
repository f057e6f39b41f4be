import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who made a change: a signed-in member, an API token acting for one, a service account (through
 * one of its tokens), the host console, the host's operator overriding the organization's roles
 * (`platform`: force-release), or the service itself acting on a rule an admin set (`system`:
 * automatic membership, the token policy).
 */
export interface AuditActor {
  type: 'user' | 'token' | 'serviceAccount' | 'console' | 'system' | 'platform';
  /** The user's id, the token's, or the service account's; null for the console, the platform and the system. */
  id: string | null;
  displayName: string;
}

/**
 * What the audit trail knows of the call that is changing state: who is calling, which
 * operation (the operationId, or `hub.<command>`), the server's request id echoed as `X-Request-Id`
 * and the caller's own `X-Request-Id`.
 * The HTTP layer and the host console open a scope around each mutating call, so services
 * record only what changed — target, before, after — and never pass the caller through.
 */
export interface AuditScope {
  actor: AuditActor;
  /** When the call began: every event it records carries this time. */
  at: Date;
  action: string;
  /** The id the server gave the request; null for the host console and the service itself. */
  requestId: string | null;
  /** The well-formed `X-Request-Id` the caller sent, for its own tracing; absent when none. */
  clientRequestId?: string | null;
}

const storage = new AsyncLocalStorage<AuditScope>();
/** Scopes open right now, across every call in flight. */
let openScopes = 0;

/**
 * Runs `work` in the scope. The storage is disabled again whenever the last open scope ends:
 * while an AsyncLocalStorage is enabled, Node 20 runs a hook for every promise the process
 * makes, and a server that had served one change paid more CPU on every read after it (bench
 * `load`, bench/README.md). Reads never open a scope, so they run without the hook once changes
 * are done.
 */
export async function withAuditScope<T>(scope: AuditScope, work: () => Promise<T>): Promise<T> {
  openScopes += 1;
  try {
    return await storage.run(scope, work);
  } finally {
    openScopes -= 1;
    if (openScopes === 0) storage.disable();
  }
}

/** The scope of the call in progress; undefined outside any request or console command. */
export const currentAuditScope = (): AuditScope | undefined => storage.getStore();

export const CONSOLE_ACTOR: AuditActor = { type: 'console', id: null, displayName: 'hub console' };

/** The host's operator acting above the organization's roles, the one override outside them. */
export const PLATFORM_ACTOR: AuditActor = { type: 'platform', id: null, displayName: 'platform admin' };
