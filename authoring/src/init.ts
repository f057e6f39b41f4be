/**
 * `cph init DIR`: a new course made from the skeleton in `authoring/template/` — course.yaml, one
 * part of each kind (with slides and a transcript where the kind has them), an image, and a
 * slides, a transcript and a typeset target. The skeleton is itself a course that checks and
 * builds (the tests make sure), so a new author starts from something that works.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COURSE_FILE } from './course.js';
import { UsageError } from './errors.js';

/** The skeleton course, shipped with cph. */
export const TEMPLATE_DIR = fileURLToPath(new URL('../template/', import.meta.url));

export interface InitOptions {
  /** The course title; defaults to one made from the directory name (`my-course` → `My course`). */
  title?: string;
}

export interface InitResult {
  title: string;
  /** The files written, POSIX paths relative to the new course directory. */
  files: string[];
}

/** Makes a course in `dir`, which must not exist or be empty. Throws UsageError otherwise. */
export function initCourse(dir: string, options: InitOptions = {}): InitResult {
  const title = options.title ?? titleFromName(path.basename(path.resolve(dir)));
  if (!/^[^\r\n]*\S[^\r\n]*$/.test(title)) throw new UsageError('--title must be one non-empty line');
  const existing = fs.statSync(dir, { throwIfNoEntry: false });
  if (existing && !existing.isDirectory()) throw new UsageError(`"${dir}" is not a directory`);
  if (existing && fs.readdirSync(dir).length > 0) {
    throw new UsageError(`"${dir}" is not empty: cph init makes a course in a new or empty directory`);
  }
  fs.cpSync(TEMPLATE_DIR, dir, { recursive: true });
  const courseFile = path.join(dir, COURSE_FILE);
  // A JSON string is a YAML double-quoted scalar: any title is written safely.
  const yaml = fs.readFileSync(courseFile, 'utf8').replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`);
  fs.writeFileSync(courseFile, yaml);
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const relative = files.map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
  return { title, files: relative.sort() };
}

/** `my-course` → `My course`: the name's words, the first capitalised. */
export function titleFromName(name: string): string {
  const words = name.replace(/[-_.\s]+/g, ' ').trim();
  return words === '' ? 'My course' : words[0]!.toUpperCase() + words.slice(1);
}
