/**
 * Installs skills in a loop through the real runtime and pipeline until it is killed; the crash
 * test SIGKILLs it at random moments. Configuration comes from the environment like `hub`'s
 * (HUB_DATA_DIR, DATABASE_URL). Argument: the organization id. Prints `ready` once the runtime
 * is open, then `installed <digest>` after each install.
 *
 *   node --import tsx test/skills/crash-worker.ts <organizationId>
 */
import { randomBytes } from 'node:crypto';
import { openRuntime } from '../../src/cli/runtime.js';
import { createLogger } from '../../src/log/logger.js';
import type { SkillFileInput } from '../../src/skills/ingest.js';

const organizationId = process.argv[2];
if (!organizationId) {
  process.stderr.write('usage: crash-worker.ts <organizationId>\n');
  process.exit(2);
}

/** A skill of 10 to 40 text files, up to 16 KiB each, in a few directories. */
function freshSkill(): SkillFileInput[] {
  const files: SkillFileInput[] = [
    { path: 'SKILL.md', content: `---\ndescription: crash ${randomBytes(4).toString('hex')}\n---\nbody\n` },
  ];
  const count = 10 + Math.floor(Math.random() * 30);
  for (let i = 0; i < count; i++) {
    const dir = ['', 'docs/', 'scripts/', 'docs/deep/'][i % 4];
    files.push({
      path: `${dir}file-${i}.txt`,
      content: randomBytes(1 + Math.floor(Math.random() * 6 * 1024)).toString('base64'),
    });
  }
  return files;
}

const runtime = await openRuntime({ logger: createLogger({ level: 'silent' }) });
process.stdout.write('ready\n');
const seen: SkillFileInput[][] = [];
for (let i = 0; ; i++) {
  // Every third install repeats earlier content: the deduplicating path gets killed too.
  const files = i % 3 === 2 && seen.length > 0 ? seen[Math.floor(Math.random() * seen.length)]! : freshSkill();
  if (seen.length < 10) seen.push(files);
  const { content_digest: contentDigest } = await runtime.skills.install(organizationId, `crash-${i % 5}`, {
    version: `1.0.${i}`,
    files,
  });
  process.stdout.write(`installed ${contentDigest}\n`);
}
