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
  /** Called once every directory of the course is watched: a change from then on is seen. */
  onReady?: () => void;
  /** How long a burst is gathered, in ms. */
  quietMs?: number;
}

/**
 * Watches the course directory `dir` until `signal` aborts.
 *
 * Each directory gets a watcher of its own, armed before `onReady` is called, and a directory
 * that appears later is watched as soon as its parent reports it. Node's recursive `fs.watch`
 * arms the directories below the first one asynchronously on Linux, so a file saved just after
 * the watch began could go unseen.
 */
export function watchCourse(dir: string, options: WatchOptions): Promise<void> {
  const root = path.resolve(dir);
  const ignore = path.resolve(options.ignore);
  // Staging directories and editors' swap files are dotfiles; nothing of a course is.
  const relevant = (absolute: string) => {
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

    const watchers = new Map<string, fs.FSWatcher>();
    /** Stops watching `directory` and everything under it (it was removed or moved away). */
    const forget = (directory: string) => {
      for (const [watched, watcher] of watchers) {
        if (watched === directory || watched.startsWith(`${directory}${path.sep}`)) {
          watcher.close();
          watchers.delete(watched);
        }
      }
    };
    /**
     * Watches `directory` and every directory under it; each watcher is armed when this returns.
     * A directory that is gone by the time it is reached (a checkout in progress) is skipped: its
     * parent reports what replaces it. Only the course directory itself must be there.
     */
    const watchTree = (directory: string) => {
      if (watchers.has(directory) || !relevant(directory)) return;
      let watcher: fs.FSWatcher;
      try {
        watcher = fs.watch(directory, (_event, name) => {
          if (name === null) return schedule();
          const changed = path.join(directory, name.toString());
          if (!relevant(changed)) return;
          if (isDirectory(changed)) watchTree(changed);
          else forget(changed);
          schedule();
        });
      } catch (err) {
        if (directory === root) throw err;
        return;
      }
      // A watched directory that is removed ends its watcher; its parent reports the removal.
      watcher.on('error', () => forget(directory));
      watchers.set(directory, watcher);
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(directory, { withFileTypes: true });
      } catch (err) {
        if (directory === root) throw err;
        return forget(directory);
      }
      for (const entry of entries) {
        if (entry.isDirectory()) watchTree(path.join(directory, entry.name));
      }
    };

    try {
      watchTree(root);
    } catch (err) {
      forget(root);
      return reject(err);
    }
    options.signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        forget(root);
        resolve();
      },
      { once: true },
    );
    options.onReady?.();
  });
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}
