/**
 * Copying a markdown target's images while the check is still parsing the parts after them.
 * Parsing is the main thread's work and copying the thread pool's: a build that copied only
 * after the check and assembly took the sum of both, one that copies part by part overlaps them.
 * The copies go into the build's private staging directory, which the build adopts when it
 * succeeds and removes otherwise, so a refused or failed build still leaves nothing behind.
 * A part's images are found exactly as assembly finds them, and assembly stays the judge: a
 * missing or outside image is its error, and only the images it lists are published.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CourseConfig, Part } from './course.js';
import { COPY_MODE, localImages } from './images.js';
import { parsePart } from './markdown.js';

export class ImagePrefetch {
  private staging: string | undefined;
  /** Set when nothing is staged early: the build root's parent does not exist yet, and is not made for a check. */
  private off = false;
  /** Each staging directory asked for: being made (what waits for it), made, or why it could not be. */
  private readonly made = new Map<string, ((error: Error | null) => void)[] | 'made' | Error>();
  /** The directories made in the staging directory, course-relative. */
  readonly directories: Pick<ReadonlySet<string>, 'has'> = { has: (dir) => this.made.get(dir) === 'made' };
  /** Images whose copy was started, and why the copies that failed did. */
  private readonly started = new Set<string>();
  private readonly failures = new Map<string, Error>();
  // Callbacks, not a promise per file: two thousand images are two thousand small copies.
  private pending = 0;
  private waiting: (() => void)[] = [];

  constructor(
    /** Absolute course directory. */
    private readonly root: string,
    private readonly outDir: string,
    private readonly targetName: string,
  ) {}

  /** For the check (checkCourseReading): starts copying the part's local images of the target's field. */
  readonly onPartRead = (part: Part, config: CourseConfig): void => {
    if (this.off) return;
    const target = config.targets.find((t) => t.name === this.targetName);
    if (target?.action !== 'assemble-markdown') return;
    const content = part.content.get(target.field);
    if (content?.extension !== 'md' || content.text.trim() === '') return;
    for (const { resolved } of localImages(part.dir, content.text, parsePart(content).tree))
      if (!('error' in resolved) && !this.started.has(resolved.path)) this.copy(resolved.path);
  };

  /** Whether the image's copy was started: the copy finds out whether it is there (adopt throws if not). */
  readonly copying = (file: string): boolean => this.started.has(file);

  /**
   * Hands the staging directory to the build once every copy has settled, with the images
   * (of `images`, the ones to publish) still to copy. A failed copy of one of them throws its
   * error: an image that is not there, too (assembly does not look up the images being copied).
   * Staged files that are not to be published (never expected: the part's images are found as
   * assembly finds them) discard the staging, and everything is copied afresh.
   */
  async adopt(images: readonly string[]): Promise<{ staging: string | undefined; rest: readonly string[] }> {
    await this.settled();
    const wanted = new Set(images);
    for (const [file, error] of this.failures) if (wanted.has(file)) throw error;
    if (this.staging === undefined || [...this.started].some((file) => !wanted.has(file))) {
      await this.discard();
      return { staging: undefined, rest: images };
    }
    const staging = this.staging;
    this.staging = undefined;
    return { staging, rest: images.filter((file) => !this.started.has(file)) };
  }

  /** Removes the staging directory unless the build adopted it, after every copy has settled. */
  async discard(): Promise<void> {
    await this.settled();
    if (this.staging !== undefined) {
      fs.rmSync(this.staging, { recursive: true, force: true });
      this.made.clear();
      this.started.clear();
    }
    this.staging = undefined;
  }

  private settled(): Promise<void> {
    return this.pending === 0 ? Promise.resolve() : new Promise((resolve) => this.waiting.push(resolve));
  }

  private copy(file: string): void {
    let staging: string | undefined;
    try {
      staging = this.stagingDir();
    } catch {
      // Whatever cannot be staged now is copied when the build publishes, which reports the failure.
      this.off = true;
    }
    if (staging === undefined) return;
    this.started.add(file);
    this.pending++;
    const done = (error: Error | null) => {
      if (error) this.failures.set(file, error);
      if (--this.pending === 0) for (const resolve of this.waiting.splice(0)) resolve();
    };
    this.inDirectory(staging, path.posix.dirname(file), (error) => {
      if (error) done(error);
      else fs.copyFile(path.join(this.root, file), path.join(staging, file), COPY_MODE, done);
    });
  }

  /**
   * Calls `then` once `dir` exists in the staging directory. Each directory is made once, after
   * its parent, by the thread pool: a synchronous mkdir would hold the parse up, and on a busy
   * file system it waits for the copies' writes.
   */
  private inDirectory(staging: string, dir: string, then: (error: Error | null) => void): void {
    const state = dir === '.' ? 'made' : this.made.get(dir);
    if (Array.isArray(state)) state.push(then);
    else if (state !== undefined) then(state === 'made' ? null : state);
    else {
      const waiting = [then];
      this.made.set(dir, waiting);
      this.inDirectory(staging, path.posix.dirname(dir), (parentError) => {
        const settle = (error: Error | null) => {
          this.made.set(dir, error ?? 'made');
          for (const next of waiting) next(error);
        };
        if (parentError) settle(parentError);
        else fs.mkdir(path.join(staging, dir), settle);
      });
    }
  }

  private stagingDir(): string | undefined {
    if (this.staging === undefined && !this.off) {
      const parent = path.dirname(this.outDir);
      if (fs.statSync(parent, { throwIfNoEntry: false })?.isDirectory())
        this.staging = fs.mkdtempSync(path.join(parent, `.${path.basename(this.outDir)}.cph-`));
      else this.off = true;
    }
    return this.staging;
  }
}
