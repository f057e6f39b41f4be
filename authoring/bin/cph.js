#!/usr/bin/env node
// The course authoring tool. The TypeScript sources run through tsx's loader, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
// exitCode, not exit(): lets piped stdout drain before the process ends.
process.exitCode = await main(process.argv.slice(2));
