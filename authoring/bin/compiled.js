// The CLI compiled once into one JavaScript file (its own sources and its packages, bundled by the
// esbuild that tsx brings), cached, and imported without any loader. Loading the sources through
// tsx costs a round trip to the loader's thread per module and most of a build's time on a large
// course; one precompiled file costs one native import. The cache is keyed by the size and
// modification time of every file that went into it, so an edited source is compiled again on
// its next run, and there is still no build step. Anything in the way (no esbuild, no writable
// temporary directory) answers undefined, and the caller runs the sources through tsx instead.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = path.join(ROOT, 'src', 'cli.ts');
/** Loaded by typeset builds only, and native: required from the sources' directory at run time. */
const EXTERNAL = ['@myriaddreamin/typst-ts-node-compiler'];
// A bundled CommonJS package may require a built-in module; an ES module has no `require` of its own.
const BANNER =
  "import { createRequire as cphCreateRequire } from 'node:module';\n" +
  'const require = cphCreateRequire(import.meta.url);';

/** The CLI module (`{ main }`) from the cache, compiled first when missing or stale; undefined when it cannot be. */
export async function importCompiledCli() {
  let cacheDir;
  let manifestFile;
  try {
    // One cache per copy of cph and per node version: two checkouts never share (or fight over) one.
    const key = createHash('sha256').update(`${ROOT}\0${process.version}`).digest('hex').slice(0, 16);
    cacheDir = path.join(os.tmpdir(), `cph-${os.userInfo().uid}`);
    manifestFile = path.join(cacheDir, `${key}.json`);
    const cached = freshBundle(manifestFile, cacheDir);
    if (cached) return await import(pathToFileURL(cached).href);
  } catch {
    return undefined;
  }
  const compiled = await compile(cacheDir, manifestFile).catch(() => undefined);
  return compiled && import(pathToFileURL(compiled).href);
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
    format: 'esm',
    target: `node${process.versions.node}`,
    external: EXTERNAL,
    // Every import.meta.url of cph's sources reads files beside them (kinds, schema, template).
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(ENTRY).href) },
    banner: { js: BANNER },
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const inputs = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    const stat = fs.statSync(path.join(ROOT, input));
    inputs[input] = `${stat.size}:${stat.mtimeMs}`;
  }
  fs.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  const bundle = `cli-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const previous = readManifest(manifestFile)?.bundle;
  writeAtomically(path.join(cacheDir, bundle), code);
  writeAtomically(manifestFile, JSON.stringify({ root: ROOT, bundle, inputs }));
  // The bundle it replaces; a run importing it right now has it open already, or falls back to tsx.
  if (previous && previous !== bundle) fs.rmSync(path.join(cacheDir, previous), { force: true });
  forgetRemovedCopies(cacheDir);
  return path.join(cacheDir, bundle);
}

/** Drops the cache of every copy of cph that is gone (a temporary install, a removed checkout). */
function forgetRemovedCopies(cacheDir) {
  for (const name of fs.readdirSync(cacheDir)) {
    if (!name.endsWith('.json')) continue;
    const manifest = readManifest(path.join(cacheDir, name));
    if (!manifest?.root || fs.existsSync(manifest.root)) continue;
    fs.rmSync(path.join(cacheDir, manifest.bundle), { force: true });
    fs.rmSync(path.join(cacheDir, name), { force: true });
  }
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
