import type { Response } from 'express';

/** What a runtime asked to resolve: a provider connection, a capability connection, or the chat application. */
export type ResolveKind = 'provider' | 'capability' | 'chatApplication';

/**
 * How one resolve ended, for `hub_runtime_credential_resolves_total{kind,outcome}`: `resolved`,
 * or why not: `not_found`, `disabled`, `draft` (never given credentials), `error` (a key or an
 * envelope the resolver could not open). The label's values stay bounded.
 */
export interface ResolveOutcome {
  kind: ResolveKind;
  outcome: 'resolved' | 'not_found' | 'disabled' | 'draft' | 'error';
}

const OUTCOME = Symbol('runtimeResolveOutcome');

export function recordResolveOutcome(res: Response, outcome: ResolveOutcome): void {
  (res.locals as { [OUTCOME]?: ResolveOutcome })[OUTCOME] = outcome;
}

export function resolveOutcomeOf(res: Response): ResolveOutcome | undefined {
  return (res.locals as { [OUTCOME]?: ResolveOutcome })[OUTCOME];
}
