#!/usr/bin/env -S node --max-semi-space-size=4
// The host console. It runs the bundle of its sources when that is current (see bundle.js), and the
// TypeScript sources themselves through tsx's loader otherwise, so there is never a build to forget.
//
// The interpreter line is where hub's node flags live (`npm start` runs this file, so they apply
// there too). Under load V8 grows the young generation to two 16 MiB semi-spaces, for no gain here:
// a request allocates short-lived objects only. With 4 MiB the server answers at the same CPU per
// request with 20-45 MB less resident memory (bench `load` and its RSS target).
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
