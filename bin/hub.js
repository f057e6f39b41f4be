#!/usr/bin/env node
// The host console. It runs the bundle of its sources when that is current (see bundle.js), and the
// TypeScript sources themselves through tsx's loader otherwise, so there is never a build to forget.
import { currentBundle } from './bundle.js';

async function loadCli() {
  const bundle = currentBundle();
  if (bundle) return import(bundle);
  const { register } = await import('tsx/esm/api');
  register();
  return import('../src/cli/hub.ts');
}

const { main } = await loadCli();
const code = await main(process.argv.slice(2));
// `serve` keeps running on its own; every other command ends here.
if (process.argv[2] !== 'serve' || code !== 0) process.exit(code);
