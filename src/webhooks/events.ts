import { changesState, listOperations } from '../http/openapi-document.js';

/** Every change of the host console (`hub.<command>`). */
export const ALL_CONSOLE_EVENTS = 'hub.*';
export const ALL_EVENTS = '*';
/** The event a budget crossing a threshold writes (docs/decisions.md, "Budgets and spend alerts"). */
export const BUDGET_THRESHOLD = 'budget.threshold';
/** The system disabled an endpoint whose receiver answered 410 Gone. */
export const WEBHOOK_DISABLED = 'webhook.disabled';
/** The event of a test delivery; never an audit action, sent whatever an endpoint subscribes to. */
export const PING = 'ping';

const CONSOLE_ACTION = /^hub\.[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)?$/;

let changingOperations: Set<string> | undefined;

/** The operations that can change something, and so write an audit event: all but the reads. */
function changingOperationIds(): Set<string> {
  changingOperations ??= new Set(
    listOperations()
      .filter(changesState)
      .map(({ operationId }) => operationId),
  );
  return changingOperations;
}

/** Whether an endpoint may subscribe to `event`: something a change can be, or one of the wildcards. */
export function isSubscribableEvent(event: string): boolean {
  return (
    event === ALL_EVENTS ||
    event === ALL_CONSOLE_EVENTS ||
    event === BUDGET_THRESHOLD ||
    event === WEBHOOK_DISABLED ||
    CONSOLE_ACTION.test(event) ||
    changingOperationIds().has(event)
  );
}

/** Whether an endpoint subscribed to `events` is told of an audit event with `action`. */
export function subscribes(events: readonly string[], action: string): boolean {
  return events.some(
    (event) => event === action || event === ALL_EVENTS || (event === ALL_CONSOLE_EVENTS && action.startsWith('hub.')),
  );
}
