/**
 * `cph build`: check, then produce a target's output under the build root. Everything is
 * produced in a private staging directory next to the build root and moved into place at the
 * end (images first, the document last), so a failed build leaves no partial output behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { assembleMarkdown } from './assemble.js';
import { checkCourse, checkCourseReading, type CheckOptions } from './check.js';
import type { Course, Target } from './course.js';
import type { Diagnostic } from './diagnostics.js';
import { BuildError, UsageError, type BuildProblem } from './errors.js';
import { ImagePrefetch } from './image-prefetch.js';
import { copyFiles } from './images.js';
import { suggesting } from './suggest.js';
import { compileTypeset } from './typeset.js';

export interface BuildOptions extends CheckOptions {
  /** The build root; defaults to `<dir>/build`. */
  out?: string;
}

export interface BuiltFile {
  target: string;
  /** Absolute path of the document written. */
  file: string;
  /** Content files that went into it. */
  parts: number;
  /** Local images copied beside it (markdown targets). */
  images: number;
  /** Typst warnings (typeset targets); they do not fail the build. */
  warnings: readonly BuildProblem[];
}

export type BuildResult =
  | { ok: true; course: Course; outputs: BuiltFile[] }
  /** The check found problems; nothing was built. */
  | { ok: false; course: Course | undefined; diagnostics: Diagnostic[] };

/** Builds one target. Throws UsageError for an unknown target, BuildError when it cannot build. */
export async function buildTarget(dir: string, targetName: string, options: BuildOptions = {}): Promise<BuildResult> {
  const outDir = buildRootOf(dir, options.out);
  // A markdown target's images are copied while the check goes on; discarded unless the build succeeds.
  const prefetch = new ImagePrefetch(path.resolve(dir), outDir, targetName);
  try {
    const { course, diagnostics } = checkCourseReading(dir, options, prefetch.onPartRead);
    if (course && !course.targets.some((t) => t.name === targetName)) {
      const names = course.targets.map((t) => t.name);
      throw new UsageError(
        suggesting(
          `unknown target "${targetName}" (targets of this course: ${names.join(', ') || 'none'})`,
          targetName,
          names,
        ).message,
      );
    }
    if (!course || diagnostics.length > 0) return { ok: false, course, diagnostics };
    const target = course.targets.find((t) => t.name === targetName)!;
    if (target.action === 'assemble-markdown')
      return { ok: true, course, outputs: [await writeMarkdownTarget(course, target, outDir, prefetch)] };
    return { ok: true, course, outputs: writeTypesetTargets(course, [target], outDir) };
  } finally {
    await prefetch.discard();
  }
}

/** Builds every `compile: typeset` target (none is fine). */
export async function buildAllTypeset(dir: string, options: BuildOptions = {}): Promise<BuildResult> {
  const { course, diagnostics } = checkCourse(dir, options);
  if (!course || diagnostics.length > 0) return { ok: false, course, diagnostics };
  const targets = typesetTargets(course);
  if (targets.length === 0) return { ok: true, course, outputs: [] };
  return { ok: true, course, outputs: writeTypesetTargets(course, targets, buildRootOf(dir, options.out)) };
}

/** The compile targets: assemble-only targets are not among them. */
export function typesetTargets(course: Pick<Course, 'targets'>): Target[] {
  return course.targets.filter((t) => t.action === 'compile');
}

/** The absolute build root: `out`, or `<dir>/build`. */
export function buildRootOf(dir: string, out?: string): string {
  return path.resolve(out ?? path.join(dir, 'build'));
}

async function writeMarkdownTarget(
  course: Course,
  target: Target & { action: 'assemble-markdown' },
  outDir: string,
  prefetch: ImagePrefetch,
): Promise<BuiltFile> {
  const assembled = assembleMarkdown(course, target.field, { vouched: prefetch.copying });
  const document = `${target.name}.md`;
  const { staging, rest } = await prefetch.adopt(assembled.images).catch((err: unknown) => {
    // A copy failed: if an image is missing, assembling with every image looked up says which.
    assembleMarkdown(course, target.field);
    throw asBuildError(err, outDir);
  });
  await publish(
    outDir,
    async (dir) => {
      await copyFiles(course.root, rest, dir, { existing: prefetch.directories });
      fs.writeFileSync(path.join(dir, document), assembled.markdown);
      return [document];
    },
    staging,
  );
  return {
    target: target.name,
    file: path.join(outDir, document),
    parts: assembled.files.length,
    images: assembled.images.length,
    warnings: [],
  };
}

function writeTypesetTargets(course: Course, targets: readonly Target[], outDir: string): BuiltFile[] {
  // Every compile target compiles the same parts: compile once, write each name.
  const { pdf, warnings } = compileTypeset(course);
  const documents = targets.map((t) => `${t.name}.pdf`);
  publishSync(outDir, (staging) => {
    for (const document of documents) fs.writeFileSync(path.join(staging, document), pdf);
    return documents;
  });
  const parts = course.parts.filter((p) => p.format === 'typeset').length;
  return targets.map((t, i) => ({
    target: t.name,
    file: path.join(outDir, documents[i]!),
    parts,
    images: 0,
    warnings,
  }));
}

/**
 * Runs `produce` in a staging directory beside `outDir` (`staged`, when one has files already),
 * then moves the staged files into `outDir`: everything else first, the documents `produce` names last.
 */
async function publish(
  outDir: string,
  produce: (staging: string) => Promise<readonly string[]>,
  staged?: string,
): Promise<void> {
  const staging = staged ?? makeStaging(outDir);
  try {
    moveInto(staging, await produce(staging), outDir);
  } catch (err) {
    throw asBuildError(err, outDir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function publishSync(outDir: string, produce: (staging: string) => readonly string[]): void {
  const staging = makeStaging(outDir);
  try {
    moveInto(staging, produce(staging), outDir);
  } catch (err) {
    throw asBuildError(err, outDir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function makeStaging(outDir: string): string {
  try {
    const parent = path.dirname(outDir);
    fs.mkdirSync(parent, { recursive: true });
    return fs.mkdtempSync(path.join(parent, `.${path.basename(outDir)}.cph-`));
  } catch (err) {
    throw asBuildError(err, outDir);
  }
}

function moveInto(staging: string, documents: readonly string[], outDir: string): void {
  fs.mkdirSync(outDir, { recursive: true });
  mergeTree(staging, outDir, new Set(documents));
  for (const document of documents) fs.renameSync(path.join(staging, document), path.join(outDir, document));
}

/** Moves the tree `from` into `to`: whole directories where `to` has none yet, file by file where it has. */
function mergeTree(from: string, to: string, except: ReadonlySet<string> = new Set()): void {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (except.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory() && fs.statSync(target, { throwIfNoEntry: false })?.isDirectory()) mergeTree(source, target);
    else fs.renameSync(source, target);
  }
}

function asBuildError(err: unknown, outDir: string): unknown {
  if (err instanceof BuildError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string') {
    const message = `cannot write the build output to ${outDir}: ${(err as Error).message}`;
    return new BuildError([{ file: null, line: null, column: null, rule: 'output-unwritable', message }]);
  }
  return err;
}
