import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { watchCourse } from '../../authoring/index.js';
import { removeTempDirs, tempDir } from './support.js';

afterAll(removeTempDirs);

/** A watch of `dir` whose bursts of changes are counted, and awaited one at a time. */
function watched(dir: string, onReady: () => void) {
  const controller = new AbortController();
  const waiting: Array<() => void> = [];
  let bursts = 0;
  const done = watchCourse(dir, {
    ignore: path.join(dir, 'build'),
    signal: controller.signal,
    quietMs: 20,
    onReady,
    onChange: async () => {
      bursts++;
      waiting.shift()?.();
    },
  });
  return {
    nextBurst: () => new Promise<void>((resolve) => waiting.push(resolve)),
    bursts: () => bursts,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

/** A watch of `dir`, once it says every directory in it is watched. */
async function watchedOnceReady(dir: string): Promise<ReturnType<typeof watched>> {
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const watch = watched(dir, () => ready());
  await isReady;
  return watch;
}

describe('watchCourse', () => {
  it('sees a change deep in the course made the moment it says it is watching', async () => {
    const dir = tempDir('cph-watch-');
    const deep = path.join(dir, 'parts', 'welcome', 'img');
    fs.mkdirSync(deep, { recursive: true });
    fs.writeFileSync(path.join(deep, 'note.md'), 'before\n');
    const watch = watched(dir, () => fs.appendFileSync(path.join(deep, 'note.md'), 'after\n'));
    await watch.nextBurst();
    expect(watch.bursts()).toBeGreaterThan(0);
    await watch.stop();
  });

  it('watches a directory made after it started', async () => {
    const dir = tempDir('cph-watch-');
    fs.mkdirSync(path.join(dir, 'parts'));
    const watch = await watchedOnceReady(dir);
    const first = watch.nextBurst();
    fs.mkdirSync(path.join(dir, 'parts', 'new'));
    await first;
    // Its parent reported the new directory, which was watched before that burst was scheduled:
    // a file written in it now is seen.
    const second = watch.nextBurst();
    fs.writeFileSync(path.join(dir, 'parts', 'new', 'slides.md'), '# New\n');
    await second;
    expect(watch.bursts()).toBeGreaterThan(1);
    await watch.stop();
  });

  it('keeps watching while directories appear and vanish under it', async () => {
    const dir = tempDir('cph-watch-');
    fs.mkdirSync(path.join(dir, 'parts'));
    const watch = await watchedOnceReady(dir);
    // Files came and went: that is a change, and it gives a burst (Node's recursive fs.watch gave none).
    const churned = watch.nextBurst();
    for (let i = 0; i < 50; i++) {
      const passing = path.join(dir, 'parts', `passing-${i}`, 'deeper');
      fs.mkdirSync(passing, { recursive: true });
      fs.writeFileSync(path.join(passing, 'file.md'), 'x');
      fs.rmSync(path.join(dir, 'parts', `passing-${i}`), { recursive: true });
    }
    await churned;
    const after = watch.nextBurst();
    fs.writeFileSync(path.join(dir, 'parts', 'kept.md'), '# Kept\n');
    await after;
    await watch.stop();
  });
});
