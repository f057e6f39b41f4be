#!/usr/bin/env node
// The course authoring tool. The TypeScript sources run through tsx's loader, so there is no build step.
// Help and the version need none of them: they are answered before the loader (most of the start-up) starts.
import { helpText } from '../src/usage.js';

/**
 * The packages each command uses, loaded before the TypeScript loader starts: once it runs,
 * every module costs a round trip to its thread, and these are most of the modules. A hint
 * for speed only; a command finds its modules either way.
 */
const PRELOAD = {
  check: ['yaml', 'ajv', 'unified', 'remark-parse', 'unist-util-visit', 'vfile', 'vfile-message', 'vfile-reporter'],
  build: ['yaml', 'ajv', 'unified', 'remark-parse', 'unist-util-visit', 'vfile', 'vfile-message', 'vfile-reporter'],
  targets: ['yaml', 'ajv'],
};

const argv = process.argv.slice(2);
const text = helpText(argv);
if (text !== undefined) {
  process.stdout.write(`${text}\n`);
} else {
  const preload = Object.hasOwn(PRELOAD, argv[0]) ? PRELOAD[argv[0]] : [];
  await Promise.all(preload.map((name) => import(name)));
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli.ts');
  // exitCode, not exit(): lets piped stdout drain before the process ends.
  process.exitCode = await main(argv);
}
