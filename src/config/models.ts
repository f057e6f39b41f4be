import { ConfigError } from './config-error.js';

/** One choice of the model picker, as `/agent-models` lists it. */
export interface AgentModel {
  id: string;
  label: string;
  toolCapable: boolean;
}

/** The model picker when `HUB_MODELS` is unset or blank. */
export const DEFAULT_MODELS: readonly AgentModel[] = Object.freeze([
  { id: 'claude-sonnet-4-5', label: 'Claude Sonnet 4.5', toolCapable: true },
  { id: 'claude-opus-4-1', label: 'Claude Opus 4.1', toolCapable: true },
  { id: 'claude-haiku-4-5', label: 'Claude Haiku 4.5', toolCapable: true },
  { id: 'gpt-5', label: 'GPT-5', toolCapable: true },
  { id: 'gpt-5-mini', label: 'GPT-5 mini', toolCapable: true },
]);

const VARIABLE = 'HUB_MODELS';
/** A role's `defaultModel` holds at most this many characters, so a longer id could never be chosen. */
const MAX_ID_LENGTH = 200;
const MAX_LABEL_LENGTH = 200;
const FIELDS = new Set(['id', 'label', 'toolCapable']);

/**
 * The model picker from `HUB_MODELS`: a non-empty JSON array of `{"id", "label", "toolCapable"}`
 * objects with distinct ids, listed in the order given. Unset or blank means the built-in list.
 * Anything else throws a one-line ConfigError naming the variable and the offending entry,
 * which stops start-up.
 */
export function parseModels(raw: string | undefined): readonly AgentModel[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_MODELS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new ConfigError(
      `${VARIABLE} is not valid JSON (${oneLine((err as Error).message)}); expected an array of {"id", "label", ` +
        `"toolCapable"} objects`,
    );
  }
  if (!Array.isArray(parsed))
    throw new ConfigError(`${VARIABLE} must be a JSON array of {"id", "label", "toolCapable"} objects`);
  if (parsed.length === 0)
    throw new ConfigError(`${VARIABLE} must list at least one model; leave it unset for the built-in list`);
  const seen = new Set<string>();
  const models = parsed.map((entry: unknown, index) => {
    const model = parseEntry(entry, `${VARIABLE}[${index}]`);
    if (seen.has(model.id))
      throw new ConfigError(
        `${VARIABLE}[${index}].id repeats the model id ${JSON.stringify(model.id)}; ids must be distinct`,
      );
    seen.add(model.id);
    return Object.freeze(model);
  });
  return Object.freeze(models);
}

function parseEntry(entry: unknown, at: string): AgentModel {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new ConfigError(`${at} must be an object {"id", "label", "toolCapable"}`);
  }
  const record = entry as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0)
    throw new ConfigError(
      `${at} has unknown properties ${unknown.map((k) => JSON.stringify(k)).join(', ')}; allowed are id, label, ` +
        `toolCapable`,
    );
  const { id, label, toolCapable } = record;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH || id.trim() !== id) {
    throw new ConfigError(`${at}.id must be a string of 1 to ${MAX_ID_LENGTH} characters without surrounding blanks`);
  }
  if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_LABEL_LENGTH) {
    throw new ConfigError(`${at}.label must be a non-blank string of at most ${MAX_LABEL_LENGTH} characters`);
  }
  if (typeof toolCapable !== 'boolean') throw new ConfigError(`${at}.toolCapable must be true or false`);
  return { id, label, toolCapable };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
