import type { Response } from 'express';

/** A finished callback's provider and outcome (`success` or the refusal's code), for `/metrics`. */
export interface SignInOutcome {
  /** The provider's id when it is configured, else `unknown` (the label's values stay bounded). */
  provider: string;
  outcome: string;
}

const OUTCOME = Symbol('signInOutcome');

export function recordSignInOutcome(res: Response, outcome: SignInOutcome): void {
  (res.locals as { [OUTCOME]?: SignInOutcome })[OUTCOME] = outcome;
}

export function signInOutcomeOf(res: Response): SignInOutcome | undefined {
  return (res.locals as { [OUTCOME]?: SignInOutcome })[OUTCOME];
}
