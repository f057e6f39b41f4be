/**
 * `npm run bench [-- <case>…] [--json]`: runs the named benchmark cases in order, every case when
 * none is named, then prints every performance target with today's figure and met/missed
 * (bench/lib/targets.ts; a target whose case did not run reads "not measured"). `--json` also
 * writes the targets and each case's figures to bench/results/bench.json. See bench/README.md.
 *
 *   load       DB-backed GETs (/members, /explorer, /projects/{id}) of ours vs plain Express and
 *              bare node:http answering the same bytes, on pinned CPUs in paired rounds
 *              (see cases/load.ts for its environment variables)
 *   startup    `hub serve` from spawn to the first 200 of an API request
 *   structure  an organization at scale (20,000 projects, 2,000 folders, 5,000 members, 500
 *              teams, 50,000 grants): explorer, my-projects, project detail and members timed
 *              over HTTP, with the explorer's DB / serialization split (see cases/structure.ts)
 *   usage      an organization with 1,000,000 agent runs over 2,000 projects: ingest rate through
 *              the real ingest path, then the usage report (unfiltered, one month, one folder)
 *              over HTTP against the same aggregation as one raw SQL statement, before and after
 *              candidate indexes (see cases/usage.ts)
 *   skills     a 200-file, 2 MB skill through the ingestion pipeline: install cold and as a
 *              duplicate, and read back, in process and over HTTP (see cases/skills.ts)
 *   logging    CPU per access-log line through the former synchronous destination and the bounded
 *              output, to /dev/null and a drained pipe; a stalled pipe (see cases/logging.ts)
 *   webhooks   a change (PATCH a team) with five webhook endpoints subscribed against none, then
 *              the deliveries it queued sent by one dispatcher (see cases/webhooks.ts)
 *
 * DATABASE_URL runs the structure and usage cases (and ours in load) on PostgreSQL instead of a temp SQLite file.
 * Exit code: 0 when every case ran and measured valid figures, 1 when one failed, 2 on usage errors.
 */
import type { BenchCase } from './cases/case.js';
import { loadCase } from './cases/load.js';
import { structureCase } from './cases/structure.js';
import { usageCase } from './cases/usage.js';
import { authoringCase } from './cases/authoring.js';
import { skillsCase } from './cases/skills.js';
import { startupCase } from './cases/startup.js';
import { loggingCase } from './cases/logging.js';
import { webhooksCase } from './cases/webhooks.js';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allCaseReports, formatTargets, targetResults } from './lib/targets.js';

const CASES: readonly BenchCase[] = [
  loadCase,
  startupCase,
  structureCase,
  usageCase,
  authoringCase,
  skillsCase,
  loggingCase,
  webhooksCase,
];
const JSON_FILE = fileURLToPath(new URL('./results/bench.json', import.meta.url));

function usage(): string {
  const width = Math.max(...CASES.map((c) => c.name.length));
  return [
    'usage: npm run bench [-- <case>…] [--json]   (no case: all of them, in this order)',
    ...CASES.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
  ].join('\n');
}

/** The cases named on the command line, in the order given, each once; undefined means print usage. */
function selectCases(argv: readonly string[]): readonly BenchCase[] | undefined {
  if (argv.some((a) => a === '-h' || a === '--help')) return undefined;
  if (argv.length === 0) return CASES;
  const selected: BenchCase[] = [];
  for (const name of argv) {
    const found = CASES.find((c) => c.name === name);
    if (!found) {
      console.error(`bench: unknown case "${name}" (known: ${CASES.map((c) => c.name).join(', ')})`);
      process.exit(2);
    }
    if (!selected.includes(found)) selected.push(found);
  }
  return selected;
}

const args = process.argv.slice(2);
const writeJson = args.includes('--json');
const selected = selectCases(args.filter((a) => a !== '--json'));
if (!selected) {
  console.log(usage());
  process.exit(0);
}

let current: BenchCase | undefined;
process.once('SIGINT', () => {
  void (current?.abort() ?? Promise.resolve()).finally(() => process.exit(130));
});

let exitCode = 0;
for (const benchCase of selected) {
  current = benchCase;
  if (selected.length > 1) console.log(`\n=== ${benchCase.name}: ${benchCase.summary}\n`);
  try {
    exitCode = Math.max(exitCode, await benchCase.run());
  } catch (err) {
    console.error(
      `\nbench ${benchCase.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    exitCode = 1;
  } finally {
    await benchCase.abort();
  }
}
current = undefined;

const targets = targetResults();
console.log(`\n=== targets (${new Date().toISOString()}, ${process.version})\n\n${formatTargets(targets)}`);
if (writeJson) {
  const document = { finishedAt: new Date().toISOString(), node: process.version, targets, cases: allCaseReports() };
  fs.mkdirSync(path.dirname(JSON_FILE), { recursive: true });
  fs.writeFileSync(JSON_FILE, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`\nfigures written to ${path.relative(process.cwd(), JSON_FILE)}`);
}
process.exitCode = exitCode;
