import { parseCommandArgs, timeFlag } from '../cli/args.js';
import { organizationNamed } from '../cli/command.js';
import type { Runtime } from '../cli/runtime.js';
import { UsageError } from '../cli/usage-error.js';
import { auditEventProjection } from './projection.js';
import { targetName } from './target-name.js';

const { toApi: toAuditEvent } = auditEventProjection;

/** Events read per query while printing; the log itself may be any length. */
const PAGE = 500;

/**
 * `hub audit <org> [--since 7d|<time>] [--limit N] [--json]`: the organization's audit events,
 * newest first — one line each for people (the sentence and names the web app shows), or one
 * JSON object per line (the API's shape) for tools.
 */
export async function auditCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: { stdout: { write(text: string): unknown } },
): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { since: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean' } },
    1,
    '<org>',
  );
  const orgSlug = positionals[0]!;
  const limit = values.limit === undefined ? Number.POSITIVE_INFINITY : Number(values.limit);
  if (!(Number.isInteger(limit) || limit === Number.POSITIVE_INFINITY) || limit < 1)
    throw new UsageError(`--limit ${JSON.stringify(values.limit)}: give a positive whole number`);

  await withRuntime(async (runtime) => {
    const org = await organizationNamed(runtime, orgSlug);
    const from =
      values.since === undefined ? undefined : timeFlag('--since', values.since, runtime.clock.now(), 'ago', '7d');
    let printed = 0;
    let cursor: string | undefined;
    do {
      const page = await runtime.auditLog.list(org.id, { from }, { limit: Math.min(PAGE, limit - printed), cursor });
      for (const event of page.items.map(toAuditEvent)) {
        io.stdout.write(values.json ? `${JSON.stringify(event)}\n` : `${humanLine(event)}\n`);
      }
      printed += page.items.length;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined && printed < limit);
    if (printed === 0 && !values.json) io.stdout.write(`no audit events in ${orgSlug}\n`);
  });
}

/** An event as the web app's audit log shows it: the sentence, the target's name, the action. */
function humanLine(event: ReturnType<typeof toAuditEvent>): string {
  const request = event.requestId ? `  request ${event.requestId}` : '';
  return `${event.at}  ${event.summary}  (${targetName(event.target)})  ${event.action}${request}`;
}
