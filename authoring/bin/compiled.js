// The CLI compiled once into one JavaScript file (its own sources and its packages, bundled by the
// esbuild that tsx brings), cached, and run without any loader. Loading the sources through
// tsx costs a round trip to the loader's thread per module and most of a build's time on a large
// course; one precompiled file costs one compile. The cache is keyed by the size and
// modification time of every file that went into it, so an edited source is compiled again on
// its next run, and there is still no build step. Anything in the way (no esbuild, no writable
// temporary directory) answers undefined, and the caller runs the sources through tsx instead.
//
// The bundle is a CommonJS function body run by vm.Script with V8's code cache beside it, one per
// command (`<bundle>.<command>.v8`, written after the first run of the command that lacked it): V8
// then neither parses the ~1 MB bundle nor compiles the functions the command runs, which was a
// sixth of a cold `cph check`. The code cache holds cph's compiled code only, nothing of any course.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = path.join(ROOT, 'src', 'cli.ts');
/** Loaded by typeset builds only, and native: required from the sources' directory at run time. */
const EXTERNAL = ['@myriaddreamin/typst-ts-node-compiler'];
const BUNDLE_KIND = 'commonjs, run by vm.Script';
/** The parameters the bundle's function body is run with, as Node runs a CommonJS module. */
const WRAPPER = ['(function (exports, require, module, __filename, __dirname) {', '\n})'];

/**
 * The CLI module (`{ main }`) from the cache, compiled first when missing or stale, to run `command`;
 * undefined when it cannot be.
 */
export async function importCompiledCli(command) {
  let cacheDir;
  let manifestFile;
  try {
    // One cache per copy of cph, per node version and per way of running bundles: two checkouts never
    // share (or fight over) one, and a bundle made for `import()` is never run as a script.
    const key = createHash('sha256').update(`${ROOT}\0${process.version}\0${BUNDLE_KIND}`).digest('hex').slice(0, 16);
    cacheDir = path.join(os.tmpdir(), `cph-${os.userInfo().uid}`);
    manifestFile = path.join(cacheDir, `${key}.json`);
    const cached = freshBundle(manifestFile, cacheDir);
    if (cached) return run(cached, command);
  } catch {
    return undefined;
  }
  const compiled = await compile(cacheDir, manifestFile).catch(() => undefined);
  return compiled && run(compiled, command);
}

let pendingCodeCache;

/** Runs the bundle and answers its exports, compiled from V8's code cache when there is one that fits. */
function run(bundle, command) {
  // The command names the cache file: only the commands cph has, anything else shares one.
  const cacheFile = `${bundle}.${/^[a-z]{1,20}$/.test(command ?? '') ? command : 'other'}.v8`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // none yet: this run makes it
  }
  const code = fs.readFileSync(bundle, 'utf8');
  const script = new vm.Script(`${WRAPPER[0]}${code}${WRAPPER[1]}`, { filename: bundle, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) pendingCodeCache = { script, cacheFile };
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(ENTRY), module, bundle, path.dirname(ENTRY));
  return module.exports;
}

/**
 * Writes the code cache the last run lacked. Called once the command has run, so that the
 * cache holds the functions it compiled too, not only the top level.
 */
export function saveCodeCache() {
  if (!pendingCodeCache) return;
  const { script, cacheFile } = pendingCodeCache;
  pendingCodeCache = undefined;
  try {
    writeAtomically(cacheFile, script.createCachedData());
  } catch {
    // A cache that cannot be written only costs the next run its compile.
  }
}

/** The bundle the manifest names, when every input it lists is unchanged. */
function freshBundle(manifestFile, cacheDir) {
  const manifest = readManifest(manifestFile);
  if (!manifest) return undefined;
  for (const [file, stamp] of Object.entries(manifest.inputs)) {
    const stat = fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false });
    if (!stat || `${stat.size}:${stat.mtimeMs}` !== stamp) return undefined;
  }
  const bundle = path.join(cacheDir, manifest.bundle);
  return fs.existsSync(bundle) ? bundle : undefined;
}

/**
 * Bundles the CLI and records its inputs. The bundle is named by its content and written before
 * the manifest that names it, each by an atomic rename, so concurrent runs never read half a file.
 */
async function compile(cacheDir, manifestFile) {
  const esbuild = createRequire(import.meta.resolve('tsx'))('esbuild');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node}`,
    external: EXTERNAL,
    // Every import.meta.url of cph's sources reads files beside them (kinds, schema, template).
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(ENTRY).href) },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const inputs = {};
  // This file too: a bundle made by another version of it may not run the way it now runs bundles.
  for (const input of ['bin/compiled.js', ...Object.keys(result.metafile.inputs)]) {
    const stat = fs.statSync(path.join(ROOT, input));
    inputs[input] = `${stat.size}:${stat.mtimeMs}`;
  }
  fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const bundle = `cli-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.cjs`;
  const previous = readManifest(manifestFile)?.bundle;
  writeAtomically(path.join(cacheDir, bundle), code);
  writeAtomically(manifestFile, JSON.stringify({ root: ROOT, bundle, inputs }));
  // The bundle it replaces; a run importing it right now has it open already, or falls back to tsx.
  if (previous && previous !== bundle) removeBundle(cacheDir, previous);
  forgetRemovedCopies(cacheDir);
  return path.join(cacheDir, bundle);
}

/** Drops the cache of every copy of cph that is gone (a temporary install, a removed checkout). */
function forgetRemovedCopies(cacheDir) {
  for (const name of fs.readdirSync(cacheDir)) {
    if (!name.endsWith('.json')) continue;
    const manifest = readManifest(path.join(cacheDir, name));
    if (!manifest?.root || fs.existsSync(manifest.root)) continue;
    removeBundle(cacheDir, manifest.bundle);
    fs.rmSync(path.join(cacheDir, name), { force: true });
  }
}

function removeBundle(cacheDir, bundle) {
  for (const name of fs.readdirSync(cacheDir))
    if (name === bundle || (name.startsWith(`${bundle}.`) && name.endsWith('.v8')))
      fs.rmSync(path.join(cacheDir, name), { force: true });
}

function readManifest(manifestFile) {
  try {
    return JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch {
    return undefined;
  }
}

function writeAtomically(file, data) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, file);
}
