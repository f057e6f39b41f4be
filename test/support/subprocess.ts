import { spawn, type ChildProcess } from 'node:child_process';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node script (one of the package's commands) as a real subprocess and collects its output. */
export function runNode(
  script: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that ends without reading its stdin (`--version`) closes the pipe first: EPIPE
    // says only that, and its exit code and output still tell the result.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

/**
 * Resolves once the child's output (stdout and stderr together) matches `pattern`, with all the
 * output so far; rejects if the child exits first. No clock: a slow machine only makes it later,
 * and the test's own time limit guards against a hang.
 */
export function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (pattern.test(output)) {
        cleanUp();
        resolve(output);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      cleanUp();
      reject(new Error(`exited ${code ?? signal} before printing ${pattern}: ${output}`));
    };
    const cleanUp = () => {
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
  });
}

/**
 * This process's environment without the npm_* variables of an enclosing `npm test`, which
 * would otherwise steer an `npm` run in a subprocess (its workspace, its config), plus `extra`.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.toLowerCase().startsWith('npm_')) env[key] = value;
  return { ...env, ...extra };
}
