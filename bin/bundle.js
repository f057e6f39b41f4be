// hub's sources bundled into one JavaScript file, so start-up does not go through a TypeScript loader.
// Through tsx, each of the ~170 source modules costs a transform and a round trip to the loader's
// thread: about half of `hub serve`'s start-up. The bundle holds only src/ (packages stay external
// and load natively from node_modules) and is written by `npm run build:server`, which `npm ci`
// runs as part of `prepare`. It is used only while every source it was made from is unchanged, so
// a checkout with edited sources runs them through tsx instead, never a stale build.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** hub's own bundle; the bench bundles its server entries the same way, under other names. */
const HUB = { entry: 'src/cli/hub.ts', name: 'hub' };

/** Where a bundle lives, and its manifest: each source it holds, with the size and mtime it had. */
function outputsOf(root, name) {
  const dir = path.join(root, 'dist');
  return { dir, bundle: path.join(dir, `${name}.mjs`), manifest: path.join(dir, `${name}.manifest.json`) };
}

/** The bundle's path when it is current with every source it holds; undefined otherwise. */
export function currentBundle(root = ROOT, { name } = HUB) {
  const { bundle, manifest: manifestFile } = outputsOf(root, name);
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch {
    return undefined;
  }
  for (const [file, stamp] of Object.entries(manifest.inputs)) {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    if (!stat || stampOf(stat) !== stamp) return undefined;
  }
  return fs.existsSync(bundle) ? bundle : undefined;
}

/**
 * Bundles an entry's sources (src/ for hub) with the esbuild that tsx brings. Each source keeps
 * its own `import.meta.url`, so the files it finds beside itself (openapi.yaml, web/dist,
 * package.json) are found from the bundle too. The bundle is written before the manifest that
 * vouches for it, each by an atomic rename, so a run that starts meanwhile sees the old pair, no
 * pair, or the new one.
 */
export async function buildBundle(root = ROOT, { entry, name } = HUB) {
  const { dir, bundle, manifest } = outputsOf(root, name);
  const esbuild = createRequire(import.meta.resolve('tsx'))('esbuild');
  const contract = embeddedContract(root);
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [ownModuleUrls],
    define: contract ? { [CONTRACT_GLOBAL]: JSON.stringify(contract.json) } : {},
  });
  const inputs = {};
  for (const input of [...Object.keys(result.metafile.inputs), ...(contract ? [CONTRACT] : [])]) {
    inputs[input] = stampOf(fs.statSync(path.join(root, input)));
  }
  fs.mkdirSync(dir, { recursive: true });
  writeAtomically(bundle, result.outputFiles[0].contents);
  writeAtomically(manifest, JSON.stringify({ entry, inputs }));
  return { bundle, sources: Object.keys(inputs).length };
}

const CONTRACT = 'openapi.yaml';
/** Named in src/http/openapi-document.ts, which parses the YAML itself when the name is not defined. */
const CONTRACT_GLOBAL = '__HUB_OPENAPI_JSON__';

/**
 * The contract as JSON text, for the bundle to carry: parsing the YAML was a large part of
 * start-up, JSON.parse of the same document a small one (bench `startup`). The manifest lists
 * openapi.yaml with the sources, so an edited contract makes the bundle stale like an edited source.
 */
function embeddedContract(root) {
  const file = path.join(root, CONTRACT);
  if (!fs.existsSync(file)) return undefined;
  const { parse } = createRequire(import.meta.url)('yaml');
  return { json: JSON.stringify(parse(fs.readFileSync(file, 'utf8'))) };
}

/** `import.meta.url` in a source becomes that source's own URL, as it is when run unbundled. */
const ownModuleUrls = {
  name: 'own-module-urls',
  setup(build) {
    build.onLoad({ filter: /\/(src|bench)\/.*\.ts$/ }, (args) => ({
      loader: 'ts',
      contents: fs
        .readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
    }));
  },
};

function stampOf(stat) {
  return `${stat.size}:${stat.mtimeMs}`;
}

function writeAtomically(file, data) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, file);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { bundle, sources } = await buildBundle();
  process.stdout.write(`hub: bundled ${sources} sources into ${path.relative(ROOT, bundle)}\n`);
}
