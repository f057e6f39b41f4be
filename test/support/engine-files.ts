/**
 * Which test files depend on the database engine, read from the files themselves so the split
 * never needs a list kept by hand: a file runs on each engine when it, or a test-side module it
 * imports (relative imports inside test/, followed transitively), reads TEST_DATABASE_URL — the
 * variable that selects the engine (test/support/database.ts reads it, so every file that makes a
 * database through the support functions counts). Every other file behaves the same whichever
 * engine is chosen (it touches no database, or only a SQLite file of its own), so one run says
 * everything it can.
 */
import fs from 'node:fs';
import path from 'node:path';

const ENGINE_VARIABLE = 'TEST_DATABASE_URL';
const RELATIVE_IMPORT =
  /(?:import|export)[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** The test files (paths relative to `root`, forward slashes) under `testDir` that read the engine. */
export function engineDependentFiles(root: string, testDir = 'test'): string[] {
  const memo = new Map<string, boolean>();
  const testRoot = path.resolve(root, testDir);

  const readsEngine = (file: string, visiting: Set<string>): boolean => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    if (visiting.has(file)) return false;
    visiting.add(file);
    const text = fs.readFileSync(file, 'utf8');
    let result = text.includes(ENGINE_VARIABLE);
    if (!result)
      for (const match of text.matchAll(RELATIVE_IMPORT)) {
        const target = resolveSource(path.dirname(file), (match[1] ?? match[2])!);
        if (target?.startsWith(testRoot + path.sep) && readsEngine(target, visiting)) {
          result = true;
          break;
        }
      }
    visiting.delete(file);
    memo.set(file, result);
    return result;
  };

  return testFiles(testRoot)
    .filter((file) => readsEngine(file, new Set()))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .sort();
}

/** The source a relative import names: `./x.js` is written for `./x.ts`. */
function resolveSource(dir: string, specifier: string): string | undefined {
  const base = path.resolve(dir, specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, path.join(base, 'index.ts')])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return undefined;
}

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...testFiles(full));
    else if (entry.name.endsWith('.test.ts')) found.push(full);
  }
  return found;
}
