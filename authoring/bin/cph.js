#!/usr/bin/env node
// The course authoring tool. The TypeScript sources run through tsx's loader, so there is no build step.
// Help and the version need none of them: they are answered before the loader (most of the start-up) starts.
import { helpText } from '../src/usage.js';

const argv = process.argv.slice(2);
const text = helpText(argv);
if (text !== undefined) {
  process.stdout.write(`${text}\n`);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli.ts');
  // exitCode, not exit(): lets piped stdout drain before the process ends.
  process.exitCode = await main(argv);
}
