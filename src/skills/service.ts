import type { LibraryFolderCheck } from '../agents/roles-service.js';
import type { Clock } from '../config/clock.js';
import type { Executor, UnitOfWork } from '../db/unit-of-work.js';
import { notFound } from '../errors/api-error.js';
import type { Schema } from '../api/types.js';
import { recordSkillChange } from './audit.js';
import type { EntryFile, SkillContent } from './content-store.js';
import { readSkillDirectory } from './directory.js';
import type { SkillFileInput, SkillIngestion, SkillInstallOutcome } from './ingest.js';
import type { SkillRecord, SkillStore, SkillWithRoles } from './store.js';

type UpdateAgentSkillResult = Schema<'UpdateAgentSkillResult'>;

const skillNotFound = (name: string) =>
  notFound('skill_not_found', `No skill ${JSON.stringify(name)} in this organization.`);

/**
 * Agent skills: installs through the shared ingestion pipeline, reads back from the store,
 * and the PATCH rules (relabel; disable, which archives the sessions of the bound roles). It
 * returns records; the operations show them through the skill projections (./projection.ts).
 */
export class SkillService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly skills: SkillStore,
    private readonly ingestion: SkillIngestion,
    private readonly content: SkillContent,
    private readonly clock: Clock,
    private readonly requireLibraryFolder: LibraryFolderCheck,
  ) {}

  /** Creates the store directory and removes staging directories left by a crash; resolves to how many. */
  prepareStore(): Promise<number> {
    return this.content.init();
  }

  list(organizationId: string): Promise<SkillWithRoles[]> {
    return this.skills.list(this.uow.executor, organizationId);
  }

  /** The files of the skill's stored version, sorted by path bytewise. */
  async files(organizationId: string, name: string): Promise<EntryFile[]> {
    const skill = await this.require(this.uow.executor, organizationId, name);
    return this.content.read(skill.content_digest);
  }

  /** `PUT /agent-skills/{name}`: creates or replaces the skill; a disabled skill stays disabled. */
  async install(
    organizationId: string,
    name: string,
    body: { version: string; files: SkillFileInput[] },
  ): Promise<SkillRecord> {
    const { skill } = await this.ingestion.install({ organizationId, name, version: body.version, files: body.files });
    return skill;
  }

  /**
   * `hub skill install DIR`: the directory's files through the same pipeline. The version
   * defaults to the front matter's `version`, else `0.0.0`.
   */
  async installDirectory(
    organizationId: string,
    name: string,
    dir: string,
    version: string | undefined,
  ): Promise<SkillInstallOutcome> {
    const files = await readSkillDirectory(dir, await this.ingestion.limitsFor(organizationId));
    return this.ingestion.install({ organizationId, name, version, files });
  }

  /**
   * `PATCH /agent-skills/{name}`: `description` relabels; `libraryFolderId` moves it in the agent
   * library (an active library folder, null for the root); `disabled: true` sets `disabledAt`
   * and, in the same transaction, archives every open session of every role bound to the skill;
   * `disabled: false` re-enables. The answer names what the request carried.
   */
  async update(
    organizationId: string,
    name: string,
    changes: { description?: string; disabled?: boolean; libraryFolderId?: string | null },
  ): Promise<UpdateAgentSkillResult> {
    const at = this.clock.now().toISOString();
    return this.uow.run(async (trx) => {
      const before = await this.skills.findWithRoles(trx, organizationId, name);
      if (!before) throw skillNotFound(name);
      const { skill } = before;
      const result: UpdateAgentSkillResult = {};
      if (changes.description === undefined && changes.disabled === undefined && changes.libraryFolderId === undefined)
        return result;
      if (changes.libraryFolderId) await this.requireLibraryFolder(organizationId, changes.libraryFolderId, trx);
      await this.skills.update(trx, skill.id, changes, at);
      if (changes.disabled === true) await this.skills.archiveSessionsOfBoundRoles(trx, organizationId, skill.id, at);
      await recordSkillChange(trx, before, (await this.skills.findWithRoles(trx, organizationId, name))!);
      if (changes.disabled !== undefined) result.disabled = changes.disabled;
      if (changes.description !== undefined || changes.libraryFolderId !== undefined) result.updated = true;
      return result;
    });
  }

  private async require(db: Executor, organizationId: string, name: string): Promise<SkillRecord> {
    const skill = await this.skills.findByName(db, organizationId, name);
    if (!skill) throw skillNotFound(name);
    return skill;
  }
}
