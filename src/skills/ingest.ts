import { isUtf8 } from 'node:buffer';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { recordSkillChange } from './audit.js';
import type { EntryFile, SkillContent } from './content-store.js';
import { contentDigest, sha256Hex } from './digest.js';
import { invalidSkill, quoted } from './invalid.js';
import { MANIFEST_PATH, MAX_VERSION_LENGTH, parseSkillManifest, type SkillManifest } from './manifest.js';
import { byPathBytes, checkPaths } from './paths.js';
import { holdsContent, type SkillRecord, type SkillStore } from './store.js';
import { CONTROL_CHARACTERS } from '../shared/text.js';

/** A skill `name`: the contract's pattern. */
export const SKILL_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** The version a skill gets when neither the caller nor its front matter gives one (host console only). */
export const DEFAULT_VERSION = '0.0.0';

/** One file handed to the pipeline: text (the HTTP surface) or raw bytes (a directory on disk). */
export interface SkillFileInput {
  path: string;
  content: string | Uint8Array;
}

/** The organization's effective ingestion limits; null means the dimension sets none. */
export interface IngestionLimits {
  /** Largest single file, in bytes. */
  fileSize: number | null;
  /** Most files. */
  attachmentCount: number | null;
  /** Largest total of all files, in bytes. */
  archiveExpansion: number | null;
}

export interface SkillInstallRequest {
  organizationId: string;
  name: string;
  /** Absent: the front matter's `version`, else DEFAULT_VERSION. */
  version?: string | undefined;
  files: readonly SkillFileInput[];
}

/**
 * A file that passed inspection, as it was given: text stays text until the store needs its
 * bytes (`entryFiles`), so content already in the store is never copied into a buffer.
 */
export interface InspectedFile {
  path: string;
  content: string | Buffer;
  /** Its size in UTF-8 bytes. */
  size: number;
}

/** A skill that passed inspection: its files (sorted by path bytewise) and its content address. */
export interface InspectedSkill {
  files: InspectedFile[];
  manifest: SkillManifest;
  version: string;
  contentDigest: string;
}

export interface SkillInstallOutcome {
  skill: SkillRecord;
  /** False when the content was already in the store (deduplicated). */
  stored: boolean;
  /** False when the skill already held this content, version and description: nothing was written. */
  changed: boolean;
}

/**
 * The one ingestion pipeline, shared by `PUT /agent-skills/{name}` and `hub skill install`:
 *
 * 1. inspect — the name, version, every path (`checkPaths`), file count, each file's size and
 *    the total against the organization's effective `attachmentCount`, `fileSize` and
 *    `archiveExpansion`, UTF-8 validity, and `SKILL.md` with its front matter. All of it in
 *    memory, before a byte is written: a rejected skill (422 `invalid_skill`) leaves no trace.
 * 2. populate — the files into a private staging directory inside the store's volume.
 * 3. deduplicate — content already stored is not written again (checked before populating;
 *    a concurrent install that wins the rename makes this one drop its staging copy).
 * 4. atomic rename into `<data>/skills/<digest>`.
 *    (Steps 2–4 are `SkillContent.put`; on PostgreSQL the entry is first inserted into the
 *    database in one transaction — the copy every instance reads — and then mirrored to disk.)
 * 5. commit the row naming the digest, with its audit event, unless the row already holds this
 *    content, version and description. The entry is durable before the row exists, so no row
 *    ever names a missing entry; a crash between 4 and 5 leaves a complete entry no row names.
 */
export class SkillIngestion {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly content: SkillContent,
    private readonly rows: SkillStore,
    private readonly capacity: Pick<CapacityService, 'effectiveLimit'>,
    private readonly clock: Clock,
  ) {}

  async limitsFor(organizationId: string): Promise<IngestionLimits> {
    const [fileSize, attachmentCount, archiveExpansion] = await Promise.all([
      this.capacity.effectiveLimit(organizationId, 'fileSize'),
      this.capacity.effectiveLimit(organizationId, 'attachmentCount'),
      this.capacity.effectiveLimit(organizationId, 'archiveExpansion'),
    ]);
    return { fileSize, attachmentCount, archiveExpansion };
  }

  async install(request: SkillInstallRequest): Promise<SkillInstallOutcome> {
    const limits = await this.limitsFor(request.organizationId);
    const inspected = inspectSkill(request.name, request.version, request.files, limits);
    let stored = false;
    if (!(await this.content.has(inspected.contentDigest)))
      stored = await this.content.put(inspected.contentDigest, entryFiles(inspected));
    const content = {
      organizationId: request.organizationId,
      name: request.name,
      version: inspected.version,
      description: inspected.manifest.description,
      contentDigest: inspected.contentDigest,
    };
    // Installing what the skill already holds changes nothing, so it writes nothing: no row
    // update, no audit event, the same `updatedAt`. Deploys reinstall every skill they ship, and
    // PUT is idempotent. A concurrent install may still replace it a moment later, as it may
    // replace any install.
    const current = await this.rows.findByName(this.uow.executor, request.organizationId, request.name);
    if (current && holdsContent(current, content)) return { skill: current, stored, changed: false };
    const at = this.clock.now().toISOString();
    const skill = await this.uow.run(async (trx) => {
      const before = await this.rows.findWithRoles(trx, request.organizationId, request.name);
      const installed = await this.rows.upsert(trx, content, at);
      // An install never changes which roles the skill is bound to.
      await recordSkillChange(trx, before ?? null, { skill: installed, boundRoleIds: before?.boundRoleIds ?? [] });
      return installed;
    });
    return { skill, stored, changed: true };
  }
}

/**
 * Step 1 of the pipeline, pure: checks the skill against the rules and the limits and computes
 * its content address. Throws 422 `invalid_skill` naming the first problem (the offending path
 * where there is one).
 */
export function inspectSkill(
  name: string,
  version: string | undefined,
  files: readonly SkillFileInput[],
  limits: IngestionLimits,
): InspectedSkill {
  if (!SKILL_NAME_PATTERN.test(name))
    throw invalidSkill(`The skill name ${quoted(name)} must match ${SKILL_NAME_PATTERN.source}`);
  if (version !== undefined) checkVersion(version);
  if (files.length === 0) throw invalidSkill(`A skill needs at least ${MANIFEST_PATH}`);
  if (limits.attachmentCount !== null && files.length > limits.attachmentCount) {
    throw invalidSkill(
      `The skill has ${files.length} files; this organization's attachmentCount limit is ${limits.attachmentCount}`,
    );
  }
  checkPaths(files.map((file) => file.path));

  let total = 0;
  const checked = files.map((file) => {
    const checkedFile = checkContent(file);
    if (limits.fileSize !== null && checkedFile.size > limits.fileSize) {
      throw invalidSkill(
        `The file ${quoted(file.path)} has ${checkedFile.size} bytes; this organization's fileSize limit is ` +
          `${limits.fileSize}`,
      );
    }
    total += checkedFile.size;
    if (limits.archiveExpansion !== null && total > limits.archiveExpansion) {
      throw invalidSkill(
        `The skill's files add up to more than this organization's archiveExpansion limit of ` +
          `${limits.archiveExpansion} bytes (at ${quoted(file.path)})`,
      );
    }
    return checkedFile;
  });

  const manifestFile = checked.find((file) => file.path === MANIFEST_PATH);
  if (!manifestFile) throw invalidSkill(`The skill has no ${MANIFEST_PATH} at its root`);
  const { content: manifestContent } = manifestFile;
  const manifest = parseSkillManifest(
    typeof manifestContent === 'string' ? manifestContent : manifestContent.toString('utf8'),
  );
  if (manifest.name !== undefined && manifest.name !== name) {
    throw invalidSkill(`The name in ${MANIFEST_PATH} is ${quoted(manifest.name)}, not the skill name ${quoted(name)}`);
  }
  const resolvedVersion = version ?? manifest.version ?? DEFAULT_VERSION;
  if (version === undefined) checkVersion(resolvedVersion);

  checked.sort((a, b) => byPathBytes(a.path, b.path));
  // A string is hashed as its UTF-8 bytes without first being copied into a buffer of its own.
  const digest = contentDigest(checked.map((file) => ({ path: file.path, sha256: sha256Hex(file.content) })));
  return { files: checked, manifest, version: resolvedVersion, contentDigest: digest };
}

/** The inspected files as the store writes them. */
export const entryFiles = (inspected: InspectedSkill): EntryFile[] =>
  inspected.files.map(({ path, content }) => ({
    path,
    bytes: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
  }));

/**
 * The file with its UTF-8 size; text must be well-formed Unicode and bytes valid UTF-8, so reading
 * back gives the same content.
 */
function checkContent(file: SkillFileInput): InspectedFile {
  if (typeof file.content === 'string') {
    if (!file.content.isWellFormed())
      throw invalidSkill(`The file ${quoted(file.path)} is not valid UTF-8 text (it has a lone surrogate)`);
    return { path: file.path, content: file.content, size: Buffer.byteLength(file.content, 'utf8') };
  }
  const bytes = Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength);
  if (!isUtf8(bytes))
    throw invalidSkill(`The file ${quoted(file.path)} is not UTF-8 text (skills hold text files only)`);
  return { path: file.path, content: bytes, size: bytes.length };
}

function checkVersion(version: string): void {
  if (version.length === 0 || version.length > MAX_VERSION_LENGTH) {
    throw invalidSkill(`The version must have 1 to ${MAX_VERSION_LENGTH} characters`);
  }
  if (!version.isWellFormed() || CONTROL_CHARACTERS.test(version)) {
    throw invalidSkill(`The version ${quoted(version)} must be text without control characters`);
  }
}
