/**
 * The `skills` case: a 200-file, 2 MB skill through the ingestion pipeline.
 *
 * On a scratch database (SQLite, or DATABASE_URL's PostgreSQL) with the app wired as in
 * production, round by round, steps interleaved so drifting load falls on all alike:
 *   install cold       fresh content (a new digest): inspect, populate with fsyncs, rename, row
 *   install duplicate  the same request again: inspect, found in the store, and the row already
 *                      holds it, so nothing is written (the duplicate target)
 *   new version        the same content under a new version (HTTP): found in the store, the row
 *                      and its audit event written in one transaction
 *   read back          getAgentSkillFiles: the entry read from disk as UTF-8
 * each in process (services.skills, what the HTTP handler and `hub skill install` call) and over
 * HTTP on a loopback port (PUT and GET with the JSON bodies), sent by a client process of its own
 * (bench/lib/http-client.ts) so the server's thread does only the server's work. For scale, the
 * same files written plainly to a fresh directory, with and without an fsync per file, and the
 * inspection alone (rules, hashes, digest). Once, untimed: the stored entry's recomputed digest
 * and the read-back files are checked against the input.
 *
 * Environment: DATABASE_URL, BENCH_SKILLS_FILES (default 200), BENCH_SKILLS_KB (total, default
 * 2048), BENCH_SKILLS_ROUNDS (default 10, after one warm-up round).
 * Returns 1 when a check failed or a request did not answer 200.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import pino from 'pino';
import { createServices } from '../../src/app/services.js';
import { systemClock } from '../../src/config/clock.js';
import type { Config } from '../../src/config/config.js';
import { createLogger } from '../../src/log/logger.js';
import { removeTree } from '../../src/skills/content-store.js';
import { inspectSkill, type IngestionLimits } from '../../src/skills/ingest.js';
import { toSkillFileEntry } from '../../src/skills/projection.js';
import { benchConfig, envInteger } from '../lib/env.js';
import { type ClientAnswer, HttpClientChild } from '../lib/http-client.js';
import { openScratchDb, type ScratchDb } from '../lib/scratch-db.js';
import { timeRounds, type Step } from '../lib/timing.js';
import { listenInProcess, login } from '../lib/in-process.js';
import { recordCaseReport, recordTarget } from '../lib/targets.js';
import type { BenchCase } from './case.js';

interface TextFile {
  path: string;
  content: string;
}

let held: { server?: http.Server; client?: HttpClientChild; scratch?: ScratchDb; workDir?: string } = {};

async function release(): Promise<void> {
  const { server, client, scratch, workDir } = held;
  held = {};
  client?.stop();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  if (workDir) await removeTree(workDir).catch(() => undefined);
  if (scratch) {
    // Store entries are read-only: make them removable before the scratch dir goes.
    await removeTree(path.join(scratch.dataDir, 'skills')).catch(() => undefined);
    await scratch.drop();
  }
}

/** `files` text files of about `totalBytes` in all, in ten directories, SKILL.md first. */
function generateSkill(name: string, files: number, totalBytes: number): TextFile[] {
  const out: TextFile[] = [
    {
      path: 'SKILL.md',
      content: `---\nname: ${name}\ndescription: Bench skill ${randomBytes(6).toString('hex')}\n---\n\n# ${name}\n`,
    },
  ];
  const each = Math.max(1, Math.floor((totalBytes - out[0]!.content.length) / (files - 1)));
  for (let i = 1; i < files; i++) {
    // base64 of random bytes: valid UTF-8 that does not compress, 4 characters per 3 bytes.
    out.push({
      path: `part-${i % 10}/file-${String(i).padStart(4, '0')}.md`,
      content: randomBytes(Math.ceil((each * 3) / 4))
        .toString('base64')
        .slice(0, each),
    });
  }
  return out;
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

/** The content address computed here, apart from src/skills. */
function independentDigest(files: TextFile[]): string {
  const lines = files
    .map((f) => ({ key: Buffer.from(f.path), line: `${sha256(f.content)}  ${f.path}\n` }))
    .sort((a, b) => Buffer.compare(a.key, b.key))
    .map((l) => l.line);
  return sha256(lines.join(''));
}

async function run(): Promise<number> {
  const fileCount = envInteger('BENCH_SKILLS_FILES', 200, 2, 1000);
  const totalKb = envInteger('BENCH_SKILLS_KB', 2048, 1, 40 * 1024);
  const rounds = envInteger('BENCH_SKILLS_ROUNDS', 10, 1, 1000);
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) failures.push(what);
  };

  const scratch = await openScratchDb(`skills_${randomBytes(4).toString('hex')}`, 'skills');
  held.scratch = scratch;
  console.log(`${scratch.engine}, ${scratch.where}`);
  const config: Config = benchConfig(scratch);
  const logger = createLogger({ level: 'info', destination: pino.destination({ dest: '/dev/null', sync: true }) });
  const services = createServices({ config, db: scratch.db, readers: scratch.readers, clock: systemClock, logger });
  const org = await services.organizations.create({ slug: 'bench', name: 'Bench', ownerImOpenId: 'bench-owner' });
  await services.skills.prepareStore();

  const { server, origin } = await listenInProcess(services);
  held.server = server;
  const base = `${origin}/api/org/${org.slug}/agent-skills`;
  const cookie = await login(services, 'bench-owner');
  const client = HttpClientChild.start();
  held.client = client;
  /**
   * One request from the client process, its body handed over beforehand (`stored`): serializing
   * and sending 2 MB are an integrator's costs, not the answer's. The answer's text comes back only
   * with `read`; its time always (the timing helpers take it).
   */
  const request = async (
    method: string,
    name: string,
    options: { bodyId?: string; suffix?: string; read?: boolean } = {},
  ): Promise<ClientAnswer> => {
    const { bodyId, suffix = '', read = false } = options;
    const answer = await client.request({
      method,
      url: `${base}/${name}${suffix}`,
      headers: { accept: 'application/json', cookie, ...(bodyId ? { 'content-type': 'application/json' } : {}) },
      ...(bodyId ? { bodyId } : {}),
      wantText: read,
    });
    if (answer.status !== 200)
      throw new Error(`${method} ${name}${suffix} answered ${answer.status}: ${answer.text?.slice(0, 300)}`);
    return answer;
  };
  let storedBodies = 0;
  /** Serializes a request body and hands it to the client process, untimed; answers its id. */
  const stored = async (body: unknown): Promise<string> => {
    const bodyId = `body-${++storedBodies}`;
    await client.storeBody(bodyId, new TextEncoder().encode(JSON.stringify(body)));
    return bodyId;
  };

  // Once, untimed: the pipeline stores what it was given, under the right address.
  const sample = generateSkill('checked', fileCount, totalKb * 1024);
  const bytes = sample.reduce((n, f) => n + Buffer.byteLength(f.content), 0);
  console.log(
    `skill: ${sample.length} files, ${(bytes / 1024 / 1024).toFixed(2)} MiB; ` +
      `${rounds} rounds after 1 warm-up round, steps interleaved\n`,
  );
  const installed = await services.skills.install(org.id, 'checked', { version: '1.0.0', files: sample });
  check(
    installed.content_digest === independentDigest(sample),
    `the content address ${installed.content_digest} is not the independently computed ${independentDigest(sample)}`,
  );
  const readBack = (await services.skills.files(org.id, 'checked')).map(toSkillFileEntry);
  const sorted = [...sample].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  check(JSON.stringify(readBack) === JSON.stringify(sorted), 'the files read back differ from the files installed');
  const overHttp = await request('PUT', 'checked', {
    bodyId: await stored({ version: '1.0.0', files: sample }),
    read: true,
  });
  check(
    (JSON.parse(overHttp.text ?? '{}') as { contentDigest?: string }).contentDigest === installed.content_digest,
    'the same files over HTTP got another content address',
  );

  const limits: IngestionLimits = await (async () => {
    const [fileSize, attachmentCount, archiveExpansion] = await Promise.all(
      (['fileSize', 'attachmentCount', 'archiveExpansion'] as const).map((d) =>
        services.capacity.effectiveLimit(org.id, d),
      ),
    );
    return {
      fileSize: fileSize ?? null,
      attachmentCount: attachmentCount ?? null,
      archiveExpansion: archiveExpansion ?? null,
    };
  })();

  // Each cold step gets content never stored; the duplicate steps reinstall the last of it.
  let serviceFiles = generateSkill('svc', fileCount, totalKb * 1024);
  let webFiles = generateSkill('web', fileCount, totalKb * 1024);
  const webSkill = () => {
    webFiles = generateSkill('web', fileCount, totalKb * 1024);
    return stored({ version: '1', files: webFiles });
  };
  let httpBody = await webSkill();
  let versions = 1;
  let newVersionBody = httpBody;
  const workDir = fs.mkdtempSync(path.join(scratch.dataDir, 'plain-'));
  held.workDir = workDir;
  let plainRound = 0;
  const plainWrite = async (sync: boolean) => {
    const dir = path.join(workDir, `${sync ? 'synced' : 'plain'}-${plainRound++}`);
    for (let i = 0; i < 10; i++) fs.mkdirSync(path.join(dir, `part-${i}`), { recursive: true });
    await Promise.all(
      sample.map(async (f) => {
        const handle = await fs.promises.open(path.join(dir, f.path), 'wx');
        try {
          await handle.writeFile(f.content);
          if (sync) await handle.sync();
        } finally {
          await handle.close();
        }
      }),
    );
  };

  const steps: Step[] = [
    {
      label: 'install cold (service)',
      before: () => (serviceFiles = generateSkill('svc', fileCount, totalKb * 1024)),
      timed: () => services.skills.install(org.id, 'svc', { version: '1', files: serviceFiles }),
    },
    {
      label: 'install duplicate (service)',
      timed: () => services.skills.install(org.id, 'svc', { version: '1', files: serviceFiles }),
    },
    { label: 'read back (service)', timed: () => services.skills.files(org.id, 'svc') },
    {
      label: 'install cold (HTTP PUT)',
      before: async () => {
        httpBody = await webSkill();
      },
      timed: () => request('PUT', 'web', { bodyId: httpBody }),
    },
    { label: 'install duplicate (HTTP PUT)', timed: () => request('PUT', 'web', { bodyId: httpBody }) },
    {
      label: 'duplicate, new version (HTTP PUT)',
      before: async () => {
        newVersionBody = await stored({ version: String(++versions), files: webFiles });
      },
      timed: () => request('PUT', 'web', { bodyId: newVersionBody }),
    },
    { label: 'read back (HTTP GET files)', timed: () => request('GET', 'web', { suffix: '/files' }) },
    { label: 'inspect only (rules, hashes)', timed: async () => inspectSkill('svc', '1', serviceFiles, limits) },
    { label: 'plain write, no fsync', timed: () => plainWrite(false) },
    { label: 'plain write, fsync each file', timed: () => plainWrite(true) },
  ];
  const stats = await timeRounds(steps, 1, rounds);

  const width = Math.max(...steps.map((s) => s.label.length));
  const ms = (value: number) => `${value.toFixed(1).padStart(8)} ms`;
  console.log(`${'step'.padEnd(width)}   ${'median'.padStart(11)} ${'min'.padStart(11)} ${'max'.padStart(11)}`);
  for (const step of steps) {
    const s = stats.get(step.label)!;
    console.log(`${step.label.padEnd(width)}   ${ms(s.medianMs)} ${ms(s.minMs)} ${ms(s.maxMs)}`);
  }
  const median = (label: string) => stats.get(label)!.medianMs;
  const how = `median of ${rounds} rounds, ${scratch.engine}`;
  recordTarget('skill.cold', median('install cold (HTTP PUT)'), how);
  recordTarget('skill.duplicate', median('install duplicate (HTTP PUT)'), how);
  recordCaseReport('skills', { database: scratch.engine, steps: Object.fromEntries(stats) });
  const entries = (await fs.promises.readdir(path.join(scratch.dataDir, 'skills'))).filter((n) =>
    /^[0-9a-f]{64}$/.test(n),
  ).length;
  // checked (service and HTTP share it), plus one per cold install, warm-up round included.
  check(
    entries === 1 + 2 * (rounds + 1),
    `the store holds ${entries} entries, expected ${1 + 2 * (rounds + 1)} (duplicates must not add any)`,
  );
  console.log(`\nstore: ${entries} entries after ${rounds + 1} rounds (one per cold install; duplicates added none)`);

  for (const failure of failures) console.error(`check failed: ${failure}`);
  return failures.length > 0 ? 1 : 0;
}

export const skillsCase: BenchCase = {
  name: 'skills',
  summary: 'a 200-file, 2 MB skill: install cold and as a duplicate, then read back, in process and over HTTP',
  run,
  abort: release,
};
