import fs from 'node:fs';
import path from 'node:path';
import { parseCommandArgs, requiredFlag } from '../cli/args.js';
import { UsageError } from '../cli/usage-error.js';
import type { Runtime } from '../cli/runtime.js';
import { SKILL_NAME_PATTERN } from './ingest.js';

/**
 * `hub skill install <dir> --org <slug> [--name N] [--version V]`: installs the directory's
 * files through the same ingestion pipeline as `PUT /agent-skills/{name}`. The name defaults to
 * the directory's base name, the version to the front matter's `version`, else `0.0.0`. Bad
 * input is refused (one line, exit 2) before anything is written.
 */
export async function skillCommand(
  args: string[],
  withRuntime: (work: (runtime: Runtime) => Promise<void>) => Promise<void>,
  io: { stdout: { write(text: string): unknown } },
): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'install') throw new UsageError(`unknown subcommand "skill ${sub ?? ''}"; expected "skill install"`);
  const parsed = parseCommandArgs(
    rest,
    { org: { type: 'string' }, name: { type: 'string' }, version: { type: 'string' } },
    1,
    '<dir>',
  );
  const orgSlug = requiredFlag(parsed.values.org, '--org');
  const dir = parsed.positionals[0]!;
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`no directory ${JSON.stringify(dir)}`);
  const name = parsed.values.name ?? path.basename(path.resolve(dir));
  if (!SKILL_NAME_PATTERN.test(name)) {
    const from = parsed.values.name === undefined ? ' (the directory name; give --name)' : '';
    throw new UsageError(`skill name ${JSON.stringify(name)}${from} must match ${SKILL_NAME_PATTERN.source}`);
  }

  await withRuntime(async (runtime) => {
    const org = await runtime.organizations.findBySlug(orgSlug);
    if (!org) throw new UsageError(`no organization ${JSON.stringify(orgSlug)}`);
    const { skill, stored, changed } = await runtime.skills.installDirectory(org.id, name, dir, parsed.values.version);
    const note = !changed ? ' (unchanged: the skill already held it)' : stored ? '' : ' (content already in the store)';
    io.stdout.write(
      `installed skill ${skill.name} ${JSON.stringify(skill.version)} into ${orgSlug}: ` +
        `${skill.content_digest}${note}\n`,
    );
  });
}
