// Runs the type tests (client.typetest.ts) under `npm test`: compiles them with the root
// tsconfig, then once more with the client (and every other type marked `// typetest:…`)
// typed `any`, which must leave every `@ts-expect-error` unused, so no expectation passes by
// accident.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const typeTestFile = fileURLToPath(new URL('./client.typetest.ts', import.meta.url));
const source = readFileSync(typeTestFile, 'utf8');
const MARKER = 'type Client = TestClient; // typetest:client';
/** `type Name = …; // typetest:<what>`: the types the loose compile makes `any`. */
const LOOSE = /^(type \w+) = .+; (\/\/ typetest:[\w-]+)$/gm;

/** Diagnostics of a program made of the type-test file, whose text may be replaced. */
function diagnostics(text: string): readonly ts.Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${root}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const options = { ...config.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    ts.sys.resolvePath(fileName) === typeTestFile
      ? ts.createSourceFile(fileName, text, languageVersion, true)
      : getSourceFile(fileName, languageVersion, ...rest);
  const program = ts.createProgram({ rootNames: [typeTestFile], options, host });
  return ts.getPreEmitDiagnostics(program);
}

function describeAll(list: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(list, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  });
}

describe('type tests', () => {
  const expectedErrors = source.split('\n').filter((line) => line.trim().startsWith('// @ts-expect-error')).length;

  it('has expected-error cases for paths, enums, bodies and queries', () => {
    expect(source).toContain(MARKER);
    expect(expectedErrors).toBeGreaterThanOrEqual(20);
  });

  it('compile: every expected type holds and every expected error occurs', () => {
    const found = diagnostics(source);
    expect(describeAll(found)).toBe('');
  }, 90_000);

  it('would fail with loose types: a client typed any leaves every @ts-expect-error unused', () => {
    const loose = source.replace(LOOSE, '$1 = any; $2');
    expect(loose).toContain('type Client = any; // typetest:client');
    const found = diagnostics(loose);
    const unused = found.filter(
      (d) => d.code === 2578 && d.file && ts.sys.resolvePath(d.file.fileName) === typeTestFile,
    );
    expect(unused.length, describeAll(found)).toBe(expectedErrors);
  }, 90_000);
});
