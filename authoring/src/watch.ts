/**
 * `cph build --watch`: after the first build, build again whenever a file of the course changes.
 * Changes come in bursts (an editor saving, a checkout), so they are gathered for a moment and
 * give one build; a change during a build gives one more build after it, never two at once.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface WatchOptions {
  /** The build root: the build's own writes must not trigger builds. */
  ignore: string;
  /** Stops watching; the promise resolves then. */
  signal: AbortSignal;
  /** Runs after each burst of changes; never concurrently with itself. */
  onChange: () => Promise<unknown>;
  /** How long a burst is gathered, in ms. */
  quietMs?: number;
}

/** Watches the course directory `dir` until `signal` aborts. */
export function watchCourse(dir: string, options: WatchOptions): Promise<void> {
  const root = path.resolve(dir);
  const ignore = path.resolve(options.ignore);
  // Staging directories and editors' swap files are dotfiles; nothing of a course is.
  const relevant = (file: string) => {
    const absolute = path.join(root, file);
    if (absolute === ignore || absolute.startsWith(`${ignore}${path.sep}`)) return false;
    return !path
      .relative(root, absolute)
      .split(path.sep)
      .some((segment) => segment.startsWith('.'));
  };
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return resolve();
    let timer: NodeJS.Timeout | undefined;
    let running = false;
    let again = false;
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        await options.onChange();
      } finally {
        running = false;
        if (again) {
          again = false;
          schedule();
        }
      }
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void run().catch(reject), options.quietMs ?? 100);
    };
    const watcher = fs.watch(root, { recursive: true }, (_event, file) => {
      if (file === null || relevant(file.toString())) schedule();
    });
    watcher.on('error', reject);
    options.signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        watcher.close();
        resolve();
      },
      { once: true },
    );
  });
}
