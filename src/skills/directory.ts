import { isUtf8 } from 'node:buffer';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { IngestionLimits, SkillFileInput } from './ingest.js';
import { invalidSkill, quoted } from './invalid.js';
import { MAX_DEPTH } from './paths.js';

/** Files read at once. */
const READ_PARALLELISM = 16;

/**
 * The regular files under `dir`, every one (hidden ones too), as the pipeline's input: paths
 * relative to `dir` with `/` between segments, raw bytes. Symbolic links and special files are
 * refused rather than followed, and so are names that are not UTF-8. The organization's limits
 * are applied while walking, from the sizes on disk, so an oversized directory is refused
 * before it is read; the pipeline checks everything again on what was read. Empty directories
 * carry no content and are left out. Throws 422 `invalid_skill`.
 */
export async function readSkillDirectory(dir: string, limits: IngestionLimits): Promise<SkillFileInput[]> {
  const root = path.resolve(dir);
  const found: Array<{ path: string; absolute: string }> = [];
  let total = 0;

  const walk = async (absolute: string, prefix: string, depth: number): Promise<void> => {
    const names = await fs.readdir(absolute, { encoding: 'buffer' });
    for (const raw of names) {
      if (!isUtf8(raw)) throw invalidSkill(`A file name in ${quoted(prefix || '.')} is not valid UTF-8`);
      const name = raw.toString('utf8');
      const relative = prefix + name;
      const child = path.join(absolute, name);
      const stat = await fs.lstat(child);
      if (stat.isSymbolicLink())
        throw invalidSkill(`${quoted(relative)} is a symbolic link; a skill holds regular files only`);
      if (stat.isDirectory()) {
        if (depth + 1 >= MAX_DEPTH)
          throw invalidSkill(
            `The directory ${quoted(relative)} is too deep: file paths may have at most ${MAX_DEPTH} levels`,
          );
        await walk(child, `${relative}/`, depth + 1);
        continue;
      }
      if (!stat.isFile()) throw invalidSkill(`${quoted(relative)} is not a regular file`);
      found.push({ path: relative, absolute: child });
      if (limits.attachmentCount !== null && found.length > limits.attachmentCount) {
        throw invalidSkill(
          `The directory holds more than ${limits.attachmentCount} files, this organization's attachmentCount limit`,
        );
      }
      if (limits.fileSize !== null && stat.size > limits.fileSize) {
        throw invalidSkill(
          `The file ${quoted(relative)} has ${stat.size} bytes; this organization's fileSize limit is ` +
            `${limits.fileSize}`,
        );
      }
      total += stat.size;
      if (limits.archiveExpansion !== null && total > limits.archiveExpansion) {
        throw invalidSkill(
          `The directory's files add up to more than this organization's archiveExpansion limit of ` +
            `${limits.archiveExpansion} bytes`,
        );
      }
    }
  };

  const stat = await fs.stat(root).catch(() => undefined);
  if (!stat?.isDirectory()) throw invalidSkill(`${quoted(dir)} is not a directory`);
  await walk(root, '', 0);

  const files: SkillFileInput[] = new Array(found.length);
  let next = 0;
  const reader = async (): Promise<void> => {
    while (next < found.length) {
      const index = next++;
      const file = found[index]!;
      files[index] = { path: file.path, content: await fs.readFile(file.absolute) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_PARALLELISM, found.length) }, reader));
  return files;
}
