#!/usr/bin/env node
// The host console. The TypeScript sources run through tsx's loader, so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/hub.ts');
const code = await main(process.argv.slice(2));
// `serve` keeps running on its own; every other command ends here.
if (process.argv[2] !== 'serve' || code !== 0) process.exit(code);
