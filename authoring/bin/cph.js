#!/usr/bin/env node
// The course authoring tool. Help and the version need none of the sources: they are answered first.
// Every other command runs the sources compiled into one cached JavaScript file (see compiled.js);
// when that cannot be made, through tsx's loader, so there is never a build step.
import { helpText } from '../src/usage.js';

/**
 * The packages each command uses, loaded before the TypeScript loader starts: once it runs,
 * every module costs a round trip to its thread, and these are most of the modules. A hint
 * for speed only; a command finds its modules either way.
 */
const PRELOAD = {
  check: ['yaml', 'ajv', 'unified', 'remark-parse', 'vfile', 'vfile-message', 'vfile-reporter'],
  build: ['yaml', 'ajv', 'unified', 'remark-parse', 'vfile', 'vfile-message', 'vfile-reporter'],
  targets: ['yaml', 'ajv'],
};

async function throughTsx(command) {
  const preload = Object.hasOwn(PRELOAD, command) ? PRELOAD[command] : [];
  await Promise.all(preload.map((name) => import(name)));
  const { register } = await import('tsx/esm/api');
  register();
  return import('../src/cli.ts');
}

const argv = process.argv.slice(2);
const text = helpText(argv);
if (text !== undefined) {
  process.stdout.write(`${text}\n`);
} else {
  const { importCompiledCli, saveCodeCache } = await import('./compiled.js');
  const { main } = (await importCompiledCli(argv[0])) ?? (await throughTsx(argv[0]));
  // exitCode, not exit(): lets piped stdout drain before the process ends.
  process.exitCode = await main(argv);
  saveCodeCache();
}
