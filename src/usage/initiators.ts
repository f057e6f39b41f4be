import type { Knex } from 'knex';
import type { Executor } from '../db/unit-of-work.js';
import { shownName } from '../users/shown-profile.js';
import type { Principal } from './records.js';
import type { RunRollupKey } from './rollup-levels.js';

/**
 * Who starts runs: each kind of initiator a run line may name is one entry of INITIATOR_KINDS
 * (how the ingest resolves it to a principal of the organization), and each kind the usage reads
 * group by is one entry of PERSON_GROUPINGS (the rollup key it sums by and how its rows are
 * labelled). A new kind is a row in each.
 */

export type InitiatorType = 'member' | 'apiToken' | 'serviceAccount';

/** A run line's `initiatedBy`, as its schema admits it (run-line.ts). */
export interface InitiatedBy {
  type: InitiatorType;
  imOpenId?: string;
  id?: string;
}

/** Resolves names of principals of one kind to the organization's principals among them. */
type Resolver = (db: Executor, organizationId: string, names: string[]) => Promise<Map<string, Principal>>;

export interface InitiatorKind {
  /** The `initiatedBy` field that names the principal. */
  field: 'imOpenId' | 'id';
  /** The principals of the organization among the names. */
  resolve: Resolver;
  /** What a name the organization does not know is called in the ingest's error. */
  describe: (name: string) => string;
}

/**
 * A member: by the chat platform's id, an active member of the organization at ingest (a run is
 * stored with the user's id, kept when they leave). An API token: by its id, any token of the
 * organization (a run may be ingested after its token is revoked), accountable to its owner: a
 * member, or a service account (then no member is).
 */
export const INITIATOR_KINDS: Readonly<Record<InitiatorType, InitiatorKind>> = {
  member: {
    field: 'imOpenId',
    describe: (name) => `member with imOpenId ${name}`,
    resolve: async (db, organizationId, names) => {
      const rows = await db('users as u')
        .join('memberships as m', 'm.user_id', 'u.id')
        .where('m.organization_id', organizationId)
        .whereNull('m.revoked_at')
        // A service account holds a membership too, but is named as one (below), never as a member.
        .where('u.kind', 'person')
        .whereIn('u.im_open_id', names)
        .select<Array<{ id: string; name: string }>>('u.id', 'u.im_open_id as name');
      return new Map(rows.map((r) => [r.name, { type: 'member', id: r.id, memberId: r.id, serviceAccountId: null }]));
    },
  },
  apiToken: {
    field: 'id',
    describe: (name) => `API token ${name}`,
    resolve: async (db, organizationId, names) => {
      const rows = await db('api_tokens as t')
        .leftJoin('service_accounts as sa', 'sa.id', 't.user_id')
        .where('t.organization_id', organizationId)
        .whereIn('t.id', names)
        .select<Array<{ id: string; user_id: string; account: string | null }>>(
          't.id',
          't.user_id',
          'sa.id as account',
        );
      return new Map(
        rows.map((r) => [
          r.id,
          { type: 'apiToken', id: r.id, memberId: r.account ? null : r.user_id, serviceAccountId: r.account },
        ]),
      );
    },
  },
  // A service account of the organization, by its id (disabled or deleted ones too: a run may be
  // reported after the fact). It is nobody's member: it is accountable for its runs, no member is.
  serviceAccount: {
    field: 'id',
    describe: (name) => `service account ${name}`,
    resolve: async (db, organizationId, names) => {
      const ids = await db('service_accounts')
        .where('organization_id', organizationId)
        .whereIn('id', names)
        .pluck<string[]>('id');
      return new Map(ids.map((id) => [id, { type: 'serviceAccount', id, memberId: null, serviceAccountId: id }]));
    },
  },
};

/** The groupings by person of the usage reads. */
export type PersonGroupBy = 'member' | 'apiToken' | 'serviceAccount';

export interface PersonGrouping {
  /** The run level key it sums by (`''` there: the run has none). */
  key: RunRollupKey;
  /** Each key's label for the organization, as rows `{id, label}`. */
  labels: (db: Executor, organizationId: string) => Knex.QueryBuilder;
  /** The label of the one row of runs without a key. */
  none: string;
}

/**
 * A member is labelled with the name the organization shows for them, and "(former member)" once
 * their membership has ended: their runs stay theirs. A token by its name. A service account by
 * its name, "(deleted)" once deleted; the runs of members and of nobody are one row.
 */
export const PERSON_GROUPINGS: Readonly<Record<PersonGroupBy, PersonGrouping>> = {
  member: {
    key: 'member_id',
    none: 'Unattributed',
    labels: (db, organizationId) =>
      db
        .from(
          db('memberships as m')
            .join('users as u', 'u.id', 'm.user_id')
            .where('m.organization_id', organizationId)
            .select('u.id', 'm.revoked_at', shownName(db, { user: 'u', membership: 'm' }))
            .as('n'),
        )
        .select(
          'n.id',
          db.raw(
            "case when n.revoked_at is null then n.display_name else n.display_name || ' (former member)' end as label",
          ),
        ),
  },
  apiToken: {
    key: 'api_token_id',
    none: 'Not through an API token',
    labels: (db, organizationId) =>
      db('api_tokens').where('organization_id', organizationId).select('id', 'name as label'),
  },
  serviceAccount: {
    key: 'service_account_id',
    none: 'Not by a service account',
    labels: (db, organizationId) =>
      db('service_accounts')
        .where('organization_id', organizationId)
        .select('id', db.raw("case when deleted_at is null then name else name || ' (deleted)' end as label")),
  },
};
