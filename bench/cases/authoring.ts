/**
 * The `authoring` case: the course authoring tool on a generated course of 500 parts holding
 * 2,000 images (4 per part, as inline and reference-style images in the slides), compared in
 * the same run with merely copying the course's files.
 *
 * Timed round by round, interleaved so drifting load on a shared machine falls on all alike:
 *   cph check          the real CLI as a subprocess (`node authoring/bin/cph.js check DIR`)
 *   cph build          the real CLI, `build DIR --target slides --out OUT` into a new OUT
 *   cp -r              `cp -r DIR/parts COPY`: every file of the parts, images included
 *   cph --help         answered before any of cph's sources load (target: ≤ 150 ms)
 *   node -e ''         node's own start-up, the floor under `cph --help` on this machine right now
 *   check, build (API) checkCourse / buildTarget in this process, without the start-up
 * It prints the build's ratio to `cp -r` (target: ≤ 3×) and the `cph --help` time, measured side by side.
 * The build's output is verified once (every image copied, one heading per part); that untimed
 * first run also compiles cph's cached bundle when its sources changed (see authoring/bin/compiled.js).
 *
 * Environment: BENCH_AUTHORING_PARTS (default 500), BENCH_AUTHORING_IMAGES_PER_PART (default 4),
 * BENCH_AUTHORING_IMAGE_KB (default 24), BENCH_AUTHORING_ROUNDS (default 5, after one warm-up).
 * Returns 1 when a command failed or the output did not match the course.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTarget, checkCourse } from '../../authoring/index.js';
import { envInteger } from '../lib/env.js';
import { timeRounds, type Step } from '../lib/timing.js';
import type { BenchCase } from './case.js';

const CPH_BIN = fileURLToPath(new URL('../../authoring/bin/cph.js', import.meta.url));

let workDir: string | undefined;
const children = new Set<ChildProcess>();

async function release(): Promise<void> {
  for (const child of children) child.kill('SIGTERM');
  children.clear();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
}

interface Generated {
  dir: string;
  parts: number;
  images: number;
  bytes: number;
  files: number;
}

/** A course of `parts` lesson parts, each with lesson, slides (its images) and transcript. */
function generateCourse(root: string, parts: number, imagesPerPart: number, imageBytes: number): Generated {
  const dir = path.join(root, 'course');
  const ids = Array.from({ length: parts }, (_, i) => `p${String(i + 1).padStart(4, '0')}`);
  const yaml = [
    'title: Generated course',
    'parts:',
    ...ids.map((id) => `  - {id: ${id}, kind: lesson, format: markdown}`),
    'targets:',
    '  slides: {assemble-markdown: {field: slides}}',
    '  transcript: {assemble-markdown: {field: transcript}}',
  ];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'course.yaml'), `${yaml.join('\n')}\n`);
  let bytes = 0;
  let files = 0;
  for (const [p, id] of ids.entries()) {
    const partDir = path.join(dir, 'parts', id);
    fs.mkdirSync(path.join(partDir, 'img'), { recursive: true });
    const slides = [`## Part ${p + 1}`, ''];
    const definitions: string[] = [];
    for (let i = 0; i < imagesPerPart; i++) {
      const name = `figure ${i + 1}.png`;
      const image = randomBytes(imageBytes);
      fs.writeFileSync(path.join(partDir, 'img', name), image);
      bytes += image.length;
      files++;
      if (i % 2 === 0)
        slides.push(`### Figure ${i + 1}`, '', `![Figure ${i + 1}](<img/${name}> "Figure ${i + 1}")`, '');
      else {
        slides.push(`![Figure ${i + 1}][fig-${id}-${i}]`, '');
        definitions.push(`[fig-${id}-${i}]: img/${encodeURIComponent(name)}`);
      }
    }
    const texts = {
      'lesson.md': `# Lesson ${p + 1}\n\n${'Some lesson text. '.repeat(40)}\n`,
      'slides.md': `${[...slides, ...definitions].join('\n')}\n`,
      'transcript.md': `${'What the speaker says. '.repeat(60)}\n`,
    };
    for (const [file, text] of Object.entries(texts)) {
      fs.writeFileSync(path.join(partDir, file), text);
      bytes += Buffer.byteLength(text);
      files++;
    }
  }
  return { dir, parts, images: parts * imagesPerPart, bytes, files };
}

/** Runs a command to its end; rejects on a non-zero exit. */
function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${path.basename(command)} ${args.join(' ')} exited ${code}: ` +
              stderr.trim().split('\n').slice(0, 5).join(' | '),
          ),
        );
    });
  });
}

function verifyBuild(out: string, generated: Generated): string[] {
  const failures: string[] = [];
  const markdown = fs.readFileSync(path.join(out, 'slides.md'), 'utf8');
  const headings = markdown.match(/^## Part \d+$/gm)?.length ?? 0;
  if (headings !== generated.parts)
    failures.push(`slides.md has ${headings} part headings, expected ${generated.parts}`);
  if (!markdown.startsWith('# Generated course\n')) failures.push('slides.md does not start with the course title');
  let copied = 0;
  for (const id of fs.readdirSync(path.join(out, 'parts')))
    copied += fs.readdirSync(path.join(out, 'parts', id, 'img')).length;
  if (copied !== generated.images) failures.push(`${copied} images copied, expected ${generated.images}`);
  const rewritten =
    markdown.match(/\]\(<parts\/p\d{4}\/img\/figure \d+\.png>|\]: parts\/p\d{4}\/img\/figure%20\d+\.png/g)?.length ?? 0;
  if (rewritten !== generated.images)
    failures.push(`${rewritten} image destinations rewritten, expected ${generated.images}`);
  return failures;
}

const ms = (value: number) => `${value.toFixed(0).padStart(7)} ms`;

async function runCase(): Promise<number> {
  const parts = envInteger('BENCH_AUTHORING_PARTS', 500, 1, 100_000);
  const perPart = envInteger('BENCH_AUTHORING_IMAGES_PER_PART', 4, 1, 100);
  const imageKb = envInteger('BENCH_AUTHORING_IMAGE_KB', 24, 1, 10_240);
  const rounds = envInteger('BENCH_AUTHORING_ROUNDS', 5, 1, 100);

  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cph-bench-'));
  const started = performance.now();
  const generated = generateCourse(workDir, parts, perPart, imageKb * 1024);
  console.log(
    `course: ${generated.parts} parts, ${generated.images} images of ${imageKb} KB, ${generated.files} files, ` +
      `${(generated.bytes / 1024 / 1024).toFixed(1)} MB ` +
      `(generated in ${((performance.now() - started) / 1000).toFixed(1)} s, ${workDir})`,
  );

  const out = path.join(workDir, 'build');
  // Each timed run writes into a directory of its own, and nothing is deleted until the end. On
  // ext4 without a journal (this kind of VM's disk) a new inode skips the recently deleted ones of its
  // block group (for a minute or more): creating files right after deleting thousands scans past
  // them, which made cp -r 0.15 → 1.5 s and timed that scan, not the copy (bench/README.md).
  let runs = 0;
  let next = out;
  const fresh = (name: string) => () => {
    next = path.join(workDir!, `${name}-${++runs}`);
  };

  // Once, untimed: the course is clean and the build's output is right.
  const checked = checkCourse(generated.dir);
  if (checked.diagnostics.length > 0) {
    console.error(
      `the generated course has ${checked.diagnostics.length} diagnostics, first: ${checked.diagnostics[0]!.message}`,
    );
    return 1;
  }
  await run(process.execPath, [CPH_BIN, 'build', generated.dir, '--target', 'slides', '--out', out]);
  const failures = verifyBuild(out, generated);
  for (const failure of failures) console.error(`output check failed: ${failure}`);

  const steps: Step[] = [
    { label: 'cph check', timed: () => run(process.execPath, [CPH_BIN, 'check', generated.dir]) },
    {
      label: 'cph build --target slides',
      before: fresh('build'),
      timed: () => run(process.execPath, [CPH_BIN, 'build', generated.dir, '--target', 'slides', '--out', next]),
    },
    {
      label: 'cp -r parts/',
      before: fresh('copy'),
      timed: () => run('cp', ['-r', path.join(generated.dir, 'parts'), next]),
    },
    { label: 'cph --help', timed: () => run(process.execPath, [CPH_BIN, '--help']) },
    { label: "node -e '' (start-up floor)", timed: () => run(process.execPath, ['-e', '']) },
    { label: 'checkCourse (in process)', timed: async () => checkCourse(generated.dir) },
    {
      label: 'buildTarget (in process)',
      before: fresh('build-api'),
      timed: () => buildTarget(generated.dir, 'slides', { out: next }),
    },
  ];
  console.log(`timing ${rounds} rounds after 1 warm-up round, steps interleaved…\n`);
  const stats = await timeRounds(steps, 1, rounds);

  const width = Math.max(...steps.map((s) => s.label.length));
  console.log(`${'step'.padEnd(width)}   ${'median'.padStart(10)} ${'min'.padStart(10)} ${'max'.padStart(10)}`);
  for (const step of steps) {
    const s = stats.get(step.label)!;
    console.log(`${step.label.padEnd(width)}   ${ms(s.medianMs)}  ${ms(s.minMs)}  ${ms(s.maxMs)}`);
  }
  const median = (label: string) => stats.get(label)!.medianMs;
  const cp = median('cp -r parts/');
  const ratio = median('cph build --target slides') / cp;
  // Whole milliseconds, so the verdict matches the figure printed.
  const help = Math.round(median('cph --help'));
  const verdict = (ok: boolean) => (ok ? 'within target' : 'OVER TARGET');
  console.log(`cph build / cp -r:             ${ratio.toFixed(2)}×  (target ≤ 3×: ${verdict(ratio <= 3)})`);
  console.log(`cph --help:                    ${help} ms (target ≤ 150 ms: ${verdict(help <= 150)})`);
  console.log(`cph check / cp -r:             ${(median('cph check') / cp).toFixed(2)}×`);
  console.log(`buildTarget (API) / cp -r:     ${(median('buildTarget (in process)') / cp).toFixed(2)}×`);
  console.log(`checkCourse (API) / cp -r:     ${(median('checkCourse (in process)') / cp).toFixed(2)}×`);
  console.log(
    `load average:                  ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${os.cpus().length} CPUs`,
  );
  return failures.length > 0 ? 1 : 0;
}

export const authoringCase: BenchCase = {
  name: 'authoring',
  summary: 'cph check and cph build --target slides on 500 parts with 2,000 images, against cp -r of the same files',
  run: async () => {
    try {
      return await runCase();
    } finally {
      await release();
    }
  },
  abort: release,
};
