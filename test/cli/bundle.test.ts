/**
 * The bundle `hub` starts from (bin/bundle.js): built from a project's sources, each keeping its
 * own module URL, and used only while every source it holds is unchanged. Run on a small project
 * in a temp directory, so the real checkout's bundle is never touched.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildBundle as build, currentBundle as current } from '../../bin/bundle.js';

let root: string;

function write(file: string, text: string): string {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  return full;
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-bundle-'));
  write(
    'src/cli/hub.ts',
    "import { beside } from '../http/where.js';\nexport const main = async (): Promise<string> => beside();\n",
  );
  write(
    'src/http/where.ts',
    "export const beside = (): string => new URL('../../openapi.yaml', import.meta.url).href;\n",
  );
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the hub bundle', () => {
  it('holds every source, and each finds the files beside it as it does unbundled', async () => {
    expect(current(root)).toBeUndefined();
    const { bundle, sources } = await build(root);
    expect(sources).toBe(2);
    expect(current(root)).toBe(bundle);
    const { main } = (await import(pathToFileURL(bundle).href)) as { main: () => Promise<string> };
    expect(await main()).toBe(pathToFileURL(path.join(root, 'openapi.yaml')).href);
  });

  it('is not used once a source it holds changes or goes, so edited sources never run stale', async () => {
    await build(root);
    const source = path.join(root, 'src/http/where.ts');
    const later = new Date(fs.statSync(source).mtimeMs + 5_000);
    fs.utimesSync(source, later, later);
    expect(current(root)).toBeUndefined();

    const { bundle } = await build(root);
    expect(current(root)).toBe(bundle);
    fs.rmSync(source);
    expect(current(root)).toBeUndefined();
  });

  it('carries openapi.yaml as JSON, and is not used once the contract changes', async () => {
    write(
      'src/cli/hub.ts',
      'declare const __HUB_OPENAPI_JSON__: string | undefined;\n' +
        "export const main = async (): Promise<string> => typeof __HUB_OPENAPI_JSON__ === 'string' " +
        "? JSON.parse(__HUB_OPENAPI_JSON__).info.title : 'not embedded';\n",
    );
    const contract = write('openapi.yaml', 'openapi: 3.1.0\ninfo:\n  title: Embedded\n');
    const { bundle } = await build(root);
    const { main } = (await import(pathToFileURL(bundle).href)) as { main: () => Promise<string> };
    expect(await main()).toBe('Embedded');

    fs.appendFileSync(contract, 'paths: {}\n');
    expect(current(root)).toBeUndefined();
  });

  it('is not used when the bundle itself is missing', async () => {
    const { bundle } = await build(root);
    fs.rmSync(bundle);
    expect(current(root)).toBeUndefined();
  });
});
