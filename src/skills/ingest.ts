import { isUtf8 } from 'node:buffer';
import type { CapacityService } from '../capacity/service.js';
import type { Clock } from '../config/clock.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { recordSkillChange } from './audit.js';
import type { SkillContent } from './content-store.js';
import { contentDigest, sha256Hex } from './digest.js';
import { invalidSkill, quoted } from './invalid.js';
import { MANIFEST_PATH, MAX_VERSION_LENGTH, parseSkillManifest, type SkillManifest } from './manifest.js';
import { byPathBytes, checkPaths } from './paths.js';
import type { SkillRecord, SkillStore } from './store.js';
import { CONTROL_CHARACTERS, isWellFormed } from '../shared/text.js';

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

/** A skill that passed inspection: its files as bytes (sorted by path bytewise) and its content address. */
export interface InspectedSkill {
  files: Array<{ path: string; bytes: Buffer }>;
  manifest: SkillManifest;
  version: string;
  contentDigest: string;
}

export interface SkillInstallOutcome {
  skill: SkillRecord;
  /** False when the content was already in the store (deduplicated). */
  stored: boolean;
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
 * 5. commit the row naming the digest. The entry is durable before the row exists, so no row
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
      stored = await this.content.put(inspected.contentDigest, inspected.files);
    const content = {
      organizationId: request.organizationId,
      name: request.name,
      version: inspected.version,
      description: inspected.manifest.description,
      contentDigest: inspected.contentDigest,
    };
    const at = this.clock.now().toISOString();
    const skill = await this.uow.run(async (trx) => {
      const before = await this.rows.findWithRoles(trx, request.organizationId, request.name);
      const installed = await this.rows.upsert(trx, content, at);
      // An install never changes which roles the skill is bound to.
      await recordSkillChange(trx, before ?? null, { skill: installed, boundRoleIds: before?.boundRoleIds ?? [] });
      return installed;
    });
    return { skill, stored };
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
  const encoded = files.map((file) => {
    const bytes = toBytes(file);
    if (limits.fileSize !== null && bytes.length > limits.fileSize) {
      throw invalidSkill(
        `The file ${quoted(file.path)} has ${bytes.length} bytes; this organization's fileSize limit is ` +
          `${limits.fileSize}`,
      );
    }
    total += bytes.length;
    if (limits.archiveExpansion !== null && total > limits.archiveExpansion) {
      throw invalidSkill(
        `The skill's files add up to more than this organization's archiveExpansion limit of ` +
          `${limits.archiveExpansion} bytes (at ${quoted(file.path)})`,
      );
    }
    return { path: file.path, bytes };
  });

  const manifestFile = encoded.find((file) => file.path === MANIFEST_PATH);
  if (!manifestFile) throw invalidSkill(`The skill has no ${MANIFEST_PATH} at its root`);
  const manifest = parseSkillManifest(manifestFile.bytes.toString('utf8'));
  if (manifest.name !== undefined && manifest.name !== name) {
    throw invalidSkill(`The name in ${MANIFEST_PATH} is ${quoted(manifest.name)}, not the skill name ${quoted(name)}`);
  }
  const resolvedVersion = version ?? manifest.version ?? DEFAULT_VERSION;
  if (version === undefined) checkVersion(resolvedVersion);

  encoded.sort((a, b) => byPathBytes(a.path, b.path));
  const digest = contentDigest(encoded.map((file) => ({ path: file.path, sha256: sha256Hex(file.bytes) })));
  return { files: encoded, manifest, version: resolvedVersion, contentDigest: digest };
}

/** The file's bytes; text must be well-formed Unicode and bytes valid UTF-8, so reading back gives the same content. */
function toBytes(file: SkillFileInput): Buffer {
  if (typeof file.content === 'string') {
    if (!isWellFormed(file.content))
      throw invalidSkill(`The file ${quoted(file.path)} is not valid UTF-8 text (it has a lone surrogate)`);
    return Buffer.from(file.content, 'utf8');
  }
  const bytes = Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength);
  if (!isUtf8(bytes))
    throw invalidSkill(`The file ${quoted(file.path)} is not UTF-8 text (skills hold text files only)`);
  return bytes;
}

function checkVersion(version: string): void {
  if (version.length === 0 || version.length > MAX_VERSION_LENGTH) {
    throw invalidSkill(`The version must have 1 to ${MAX_VERSION_LENGTH} characters`);
  }
  if (!isWellFormed(version) || CONTROL_CHARACTERS.test(version)) {
    throw invalidSkill(`The version ${quoted(version)} must be text without control characters`);
  }
}
