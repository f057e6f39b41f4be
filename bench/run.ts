/**
 * `npm run bench [-- <case>…]`: runs the named benchmark cases in order, every case when none
 * is named.
 *
 *   load       HTTP load on GET /api/org/{slug}: ours vs plain Express vs bare node:http
 *              (see cases/load.ts for its environment variables)
 *   structure  an organization at scale (20,000 projects, 2,000 folders, 5,000 members, 500
 *              teams, 50,000 grants): explorer, my-projects, project detail and members timed
 *              over HTTP, with the explorer's DB / serialization split (see cases/structure.ts)
 *   usage      an organization with 1,000,000 agent runs over 2,000 projects: ingest rate through
 *              the real ingest path, then the usage report (unfiltered, one month, one folder)
 *              over HTTP against the same aggregation as one raw SQL statement, before and after
 *              candidate indexes (see cases/usage.ts)
 *   skills     a 200-file, 2 MB skill through the ingestion pipeline: install cold and as a
 *              duplicate, and read back, in process and over HTTP (see cases/skills.ts)
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

const CASES: readonly BenchCase[] = [loadCase, structureCase, usageCase, authoringCase, skillsCase];

function usage(): string {
  const width = Math.max(...CASES.map((c) => c.name.length));
  return [
    'usage: npm run bench [-- <case>…]   (no case: all of them, in this order)',
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

const selected = selectCases(process.argv.slice(2));
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
process.exitCode = exitCode;
