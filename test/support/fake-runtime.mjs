// A stand-in for the agent runtime as a process of its own: it knows the hub only by its URL and
// two secrets, and talks to it over HTTP alone, as a runtime on another host or in another
// language would (docs/runtime-api.md). Each step is one thing a runtime does around a run; it
// prints one JSON line per step (`{step, status, body}`) and exits 1 when a step fails.
//
// Environment: HUB_URL, HUB_ORG (the organization's slug), HUB_TOKEN (a service account's token
// with the `runtime` scope), HUB_RUNTIME_CREDENTIAL (a platform runtime credential, hubr_…),
// HUB_PROJECT_ID, HUB_PROVIDER_ID, HUB_INITIATOR (the imOpenId of the member who starts the run).

const { HUB_URL, HUB_ORG, HUB_TOKEN, HUB_RUNTIME_CREDENTIAL, HUB_PROJECT_ID, HUB_PROVIDER_ID, HUB_INITIATOR } =
  process.env;
const org = `${HUB_URL}/api/org/${encodeURIComponent(HUB_ORG)}`;

async function post(path, secret, body, headers = {}) {
  const res = await fetch(`${org}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const sessionId = `fake-runtime-${process.pid}`;
// Who starts the run and with which model: what admission is asked about and the runs report.
const initiatedBy = { type: 'member', imOpenId: HUB_INITIATOR };
const model = 'gpt-5';
const run = (at, extra = {}) => ({
  projectId: HUB_PROJECT_ID,
  sessionId,
  provider: HUB_PROVIDER_ID,
  roleId: 'coder',
  model,
  initiatedBy,
  at,
  inputTokens: 120,
  outputTokens: 30,
  costUsd: 0.25,
  ...extra,
});
const batch = `${[run('2026-11-26T09:00:00Z'), run('2026-11-26T09:05:00Z', { title: 'Done' })]
  .map((r) => JSON.stringify(r))
  .join('\n')}\n`;
const batchKey = `batch-${sessionId}-1`;

/** What the runtime does around a run, in order. */
const steps = [
  // Whether the run may start, asked with the runtime token.
  [
    'admission',
    () => post('/admission', HUB_TOKEN, { projectId: HUB_PROJECT_ID, initiatedBy, provider: HUB_PROVIDER_ID, model }),
  ],
  // The credentials the run needs, fetched with the host's credential.
  [
    'fetchProviderCredentials',
    () => post('/runtime/credentials', HUB_RUNTIME_CREDENTIAL, { providerId: HUB_PROVIDER_ID }),
  ],
  // Its runs, reported as NDJSON under a key…
  [
    'reportRuns',
    () =>
      post('/usage/runs', HUB_TOKEN, batch, { 'content-type': 'application/x-ndjson', 'idempotency-key': batchKey }),
  ],
  // …and again, as a runtime does that never saw the first answer: stored once.
  [
    'retryReport',
    () =>
      post('/usage/runs', HUB_TOKEN, batch, { 'content-type': 'application/x-ndjson', 'idempotency-key': batchKey }),
  ],
  // A credential its own token must not fetch.
  ['fetchWithOrgToken', () => post('/runtime/credentials', HUB_TOKEN, { providerId: HUB_PROVIDER_ID }), 403],
];

let failed = false;
for (const [step, call, expected = 200] of steps) {
  const { status, body } = await call();
  process.stdout.write(`${JSON.stringify({ step, status, body })}\n`);
  if (status !== expected) failed = true;
}
process.exit(failed ? 1 : 0);
