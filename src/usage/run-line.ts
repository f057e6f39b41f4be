import { Ajv } from 'ajv';
import { isStorableText, UNSTORABLE_TEXT } from '../shared/text.js';
import { isRfc3339Timestamp } from '../shared/timestamps.js';
import { type InitiatedBy, INITIATOR_KINDS } from './initiators.js';

/** One agent run as `hub usage ingest` reads it, one JSON object per line. */
export interface RunLine {
  projectId: string;
  sessionId: string;
  provider: string;
  roleId: string;
  model: string;
  title?: string | null;
  /** Normalized to `toISOString()` form, so stored times compare as text. */
  at: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** What the run consumed, itemized (docs/decisions.md, "Usage facts"); absent means none. */
  facts?: UsageFact[];
  /** Who started it (initiators.ts); absent: nobody is named (a schedule, say). */
  initiatedBy?: InitiatedBy;
}

export type FactKind = 'model' | 'tool' | 'capability';

/** One fact of a run: `model` tokens, `tool` calls, or calls of the external capability `capabilityId`. */
export interface UsageFact {
  kind: FactKind;
  capabilityId?: string;
  quantity: number;
  unit: 'tokens' | 'calls';
  costUsd: number | null;
}

/** The unit each kind is counted in. */
export const UNIT_OF_KIND: Readonly<Record<FactKind, UsageFact['unit']>> = {
  model: 'tokens',
  tool: 'calls',
  capability: 'calls',
};
/** The most facts one run may carry. */
export const MAX_FACTS_PER_RUN = 100;

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['projectId', 'sessionId', 'provider', 'roleId', 'model', 'at', 'inputTokens', 'outputTokens', 'costUsd'],
  properties: {
    projectId: { type: 'string', minLength: 1, maxLength: 36 },
    sessionId: { type: 'string', minLength: 1, maxLength: 64 },
    provider: { type: 'string', minLength: 1, maxLength: 64 },
    roleId: { type: 'string', minLength: 1, maxLength: 64 },
    model: { type: 'string', minLength: 1, maxLength: 200 },
    title: { type: ['string', 'null'], maxLength: 500 },
    at: { type: 'string', minLength: 1, maxLength: 40 },
    inputTokens: { type: 'integer', minimum: 0 },
    outputTokens: { type: 'integer', minimum: 0 },
    costUsd: { type: ['number', 'null'], minimum: 0 },
    initiatedBy: {
      type: 'object',
      additionalProperties: false,
      required: ['type'],
      properties: {
        type: { enum: Object.keys(INITIATOR_KINDS) },
        // The lengths of users.im_open_id and of a principal's id.
        imOpenId: { type: 'string', minLength: 1, maxLength: 128 },
        id: { type: 'string', minLength: 1, maxLength: 36 },
      },
    },
    facts: {
      type: 'array',
      maxItems: MAX_FACTS_PER_RUN,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'quantity', 'unit', 'costUsd'],
        properties: {
          kind: { enum: ['model', 'tool', 'capability'] },
          // The capability connections' id rule (the slug rule of teams).
          capabilityId: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
          quantity: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
          unit: { enum: ['tokens', 'calls'] },
          costUsd: { type: ['number', 'null'], minimum: 0 },
        },
      },
    },
  },
} as const;

// Compiled once; every line of every file goes through it.
const validate = new Ajv({ allErrors: false, strict: true }).compile(schema);

/** Parses and checks one line; throws an Error whose message says what is wrong with it. */
export function parseRunLine(text: string): RunLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('not valid JSON');
  }
  return checkRunLine(value);
}

/**
 * Checks one run already parsed (a line's JSON, or an item of a JSON array sent over HTTP);
 * throws an Error whose message says what is wrong with it. The value becomes the run: its time
 * is normalized in place.
 */
export function checkRunLine(value: unknown): RunLine {
  if (!validate(value)) {
    const [error] = validate.errors ?? [];
    const where = error?.instancePath
      ? error.instancePath.slice(1)
      : error?.params && 'missingProperty' in error.params
        ? String(error.params.missingProperty)
        : 'the object';
    const what =
      error?.keyword === 'additionalProperties'
        ? `unknown field "${String(error.params.additionalProperty)}"`
        : `${where} ${error?.message ?? 'is invalid'}`;
    throw new Error(what);
  }
  const run = value as RunLine;
  for (const [i, fact] of (run.facts ?? []).entries()) {
    if (fact.unit !== UNIT_OF_KIND[fact.kind])
      throw new Error(
        `facts/${i}/unit must be "${UNIT_OF_KIND[fact.kind]}" for a ${fact.kind} fact, got "${fact.unit}"`,
      );
    if (fact.kind === 'capability' && fact.capabilityId === undefined)
      throw new Error(`facts/${i} is a capability fact without capabilityId`);
    if (fact.kind !== 'capability' && fact.capabilityId !== undefined)
      throw new Error(`facts/${i}/capabilityId is only for capability facts, not ${fact.kind}`);
  }
  if (run.initiatedBy) checkInitiator(run.initiatedBy);
  // Text neither database can store fails here, as the line's mistake, not as the write's.
  for (const field of TEXT_FIELDS) {
    const text = run[field];
    if (typeof text === 'string' && !isStorableText(text)) throw new Error(`${field} ${UNSTORABLE_TEXT}`);
  }
  for (const field of ['imOpenId', 'id'] as const) {
    const text = run.initiatedBy?.[field];
    if (text !== undefined && !isStorableText(text)) throw new Error(`initiatedBy/${field} ${UNSTORABLE_TEXT}`);
  }
  // The same strict RFC 3339 as the report's window bounds: `new Date` alone rolls Feb 30 over.
  if (!isRfc3339Timestamp(run.at))
    throw new Error(`at "${run.at}" is not an RFC 3339 timestamp with a time zone, such as 2026-01-31T09:30:00Z`);
  // The parsed value is this call's own, so its time is normalized in place: a copy made by
  // spreading it is paid once per line ingested.
  run.at = new Date(run.at).toISOString();
  return run;
}

const TEXT_FIELDS = ['projectId', 'sessionId', 'provider', 'roleId', 'model', 'title'] as const;

/** An initiator names its principal by its kind's field, and by no other. */
export function checkInitiator(initiator: InitiatedBy): void {
  const { field } = INITIATOR_KINDS[initiator.type];
  if (initiator[field] === undefined) {
    throw new Error(`initiatedBy must have "${field}" for a ${initiator.type} initiator`);
  }
  for (const other of ['imOpenId', 'id'] as const) {
    if (other !== field && initiator[other] !== undefined) {
      throw new Error(`initiatedBy/${other} is not a field of a ${initiator.type} initiator (it takes "${field}")`);
    }
  }
}
