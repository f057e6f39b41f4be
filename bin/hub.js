#!/usr/bin/env -S node --max-old-space-size=2000 --no-allocation-site-pretenuring
// The host console. It runs the bundle of its sources when that is current (see bundle.js), and the
// TypeScript sources themselves through tsx's loader otherwise, so there is never a build to forget.
//
// The interpreter line is where hub's node flags live (`npm start` runs this file, so they apply
// there too). --max-old-space-size: V8 sizes the old generation's growth by the heap limit. Under
// the default limit (a quarter of the machine's memory, up to 4 GB) it lets the old generation grow
// to four times what survived its last full collection before collecting again: a server with
// ~20 MB live ran at 165-172 MB resident under load. Below 2 GB the factor falls toward 2, and the
// same load runs at 140-145 MB with the same CPU per request (bench `load`, A/B, and its RSS target);
// the price is a full collection more often, which shows in the p99 at 10 connections (15 -> 35 ms).
// 2000 MB is still far above anything hub keeps live. The young generation keeps V8's default size:
// with 4 MiB semi-spaces more objects of requests in flight were promoted, and collected in full,
// which cost up to 17 % more CPU per request at 50 connections.
// --no-allocation-site-pretenuring: V8 allocates straight into the old generation the objects of an
// allocation site whose objects it once saw survive. Under load it took that decision for sites of
// the request pipeline, whose objects all die with their request: GET /api/org/{slug} then promoted
// ~10 MB/s and ran a full collection every ~0.4 s, and each young collection took ~5.5 ms instead
// of ~0.5. Without it: x1.26 req/s, 149 -> 118 us of CPU per request (bench `load` A/B); the member
// list and the explorer unchanged (x0.99, x0.98 CPU); usage ingest unchanged.
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
