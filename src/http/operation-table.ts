import type { Request, Response } from 'express';
import type { Logger } from '../log/logger.js';
import type { Answer } from './answer.js';
import type { ProjectAccess } from '../projects/project-guard.js';
import type { AuthenticatedSession } from '../auth/sessions.js';
import type { Rule } from '../auth/rules.js';
import type { OrgAccess } from '../orgs/store.js';
import type { ShownRuntimeCredential } from '../runtime/credential-service.js';
import type {
  AnswersCsv,
  OperationId,
  PathParams,
  QueryParams,
  RequestBody,
  SuccessBody,
  SuccessStatus,
} from '../api/types.js';
import type { CsvExport } from './csv.js';

interface BaseContext<O extends OperationId> {
  req: Request;
  res: Response;
  params: PathParams<O>;
  query: QueryParams<O>;
  body: RequestBody<O>;
  log: Logger;
}

export interface SessionContext<O extends OperationId> extends BaseContext<O> {
  session: AuthenticatedSession;
}

export interface OrgContext<O extends OperationId> extends SessionContext<O> {
  access: OrgAccess;
}

export interface ProjectContext<O extends OperationId> extends OrgContext<O> {
  project: ProjectAccess;
}

/** The host's agent runtime, by its platform runtime credential: no session, no organization resolved. */
export interface RuntimeContext<O extends OperationId> extends BaseContext<O> {
  runtimeCredential: ShownRuntimeCredential;
}

type ContextFor<R extends Rule, O extends OperationId> = R extends 'public'
  ? BaseContext<O>
  : R extends 'platformRuntime'
    ? RuntimeContext<O>
    : R extends 'session'
      ? SessionContext<O>
      : R extends 'projectRead' | 'projectManage'
        ? ProjectContext<O>
        : OrgContext<O>;

type SpecFor<O extends OperationId, R extends Rule> = {
  rule: R;
  /** The success status; 200 when omitted. */
  status?: SuccessStatus<O>;
  /** The answer, its lists possibly as the text the database wrote (`Answer`). */
  handle: (ctx: ContextFor<R, O>) => Promise<Answer<SuccessBody<O>>>;
} & CsvFor<O>;

/**
 * An operation whose answer openapi.yaml documents as `text/csv` too says how its answer reads as
 * CSV; no other operation may.
 */
type CsvFor<O extends OperationId> = AnswersCsv<O> extends true ? { csv: CsvExport<SuccessBody<O>> } : { csv?: never };

/** One operation's declared rule and handler; the handler's context matches the rule. */
export type OperationSpec<O extends OperationId> = { [R in Rule]: SpecFor<O, R> }[Rule];

/** Every operation of openapi.yaml: the compiler refuses a table that leaves one out. */
export type OperationTable = { [O in OperationId]: OperationSpec<O> };

/**
 * The operations of one feature area. A module returns `{ … } satisfies OperationModule`, so its
 * type keeps which operations it declares and the table's completeness is checked at compile time.
 */
export type OperationModule = Partial<OperationTable>;
