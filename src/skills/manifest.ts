import { isMap, isScalar, parseDocument, type Node } from 'yaml';
import { invalidSkill, quoted } from './invalid.js';
import { isStorableText } from '../shared/text.js';

/** The manifest every skill carries at its root. */
export const MANIFEST_PATH = 'SKILL.md';
/** The row's `description` column holds at most this many characters. */
export const MAX_DESCRIPTION_LENGTH = 2000;
/** The row's `version` column holds at most this many characters (the request schema's bound too). */
export const MAX_VERSION_LENGTH = 200;

/** What the service reads from `SKILL.md`'s front matter; the rest of the file is the agent's. */
export interface SkillManifest {
  name: string | undefined;
  description: string | null;
  version: string | undefined;
}

/**
 * `---` on the first line (after an optional byte order mark), the YAML, then `---` or `...` on
 * a line of its own.
 */
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;
/** Bounds alias expansion, so a small front matter cannot expand into a huge value. */
const MAX_ALIAS_COUNT = 50;

/**
 * Reads the front matter of `SKILL.md`. It must be there and be a YAML mapping (possibly
 * empty). `name` and `description`, when present, must be strings; `version` may be any scalar
 * and is taken as written (`1.10` stays `1.10`). Anything else in it is left to the agent.
 * Throws 422 `invalid_skill`.
 */
export function parseSkillManifest(text: string): SkillManifest {
  const match = FRONT_MATTER.exec(text);
  if (match?.index !== 0) {
    throw invalidSkill(
      `${MANIFEST_PATH} must begin with YAML front matter: a "---" line, the YAML, and a closing "---" line`,
    );
  }
  const doc = parseDocument(match[1]!, { prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) throw invalidSkill(`The front matter of ${MANIFEST_PATH} is not valid YAML: ${firstLine(error.message)}`);
  const root = doc.contents;
  if (root !== null && !isMap(root) && !(isScalar(root) && root.value === null)) {
    throw invalidSkill(`The front matter of ${MANIFEST_PATH} must be a YAML mapping of keys to values`);
  }
  let values: Record<string, unknown>;
  try {
    values = (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {}) as Record<string, unknown>;
  } catch (err) {
    throw invalidSkill(`The front matter of ${MANIFEST_PATH} cannot be read: ${firstLine((err as Error).message)}`);
  }

  const name = optionalString(values, 'name');
  const description = optionalString(values, 'description') ?? null;
  if (description !== null && description.length > MAX_DESCRIPTION_LENGTH) {
    throw invalidSkill(`The description in ${MANIFEST_PATH} is longer than ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  const versionNode = isMap(root) ? (root.get('version', true) as Node | undefined) : undefined;
  let version: string | undefined;
  if (versionNode !== undefined && !(isScalar(versionNode) && versionNode.value === null)) {
    if (!isScalar(versionNode))
      throw invalidSkill(`The version in ${MANIFEST_PATH} must be a plain value such as 1.2.0`);
    version =
      typeof versionNode.value === 'string' ? versionNode.value : (versionNode.source ?? String(versionNode.value));
  }
  return { name, description, version };
}

function optionalString(values: Record<string, unknown>, key: string): string | undefined {
  const value = values[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    const kind = Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a mapping' : quoted(String(value));
    throw invalidSkill(`The ${key} in ${MANIFEST_PATH} must be a string, got ${kind}`);
  }
  if (!isStorableText(value)) throw invalidSkill(`The ${key} in ${MANIFEST_PATH} holds U+0000 or a lone surrogate`);
  return value;
}

const firstLine = (message: string): string => message.split('\n', 1)[0]!.trim();
