/**
 * Usage policies as the screens show and edit them: each list of an allow as a field that either
 * narrows nothing (the list left out) or names what is allowed (an empty list allows nothing), and
 * every allow and scope in words.
 */
import type { Schemas } from '../../../lib/api-client';

export type Policy = Schemas['UsagePolicy'];
export type Allow = Schemas['UsageAllow'];
export type ScopeType = Schemas['UsagePolicyScopeType'];

export const SCOPE_LABELS: Record<ScopeType, string> = {
  organization: 'The organization',
  folder: 'A folder',
  project: 'A project',
  team: 'A team',
};

/** One list of the form: `any` leaves it out; `only` keeps what the text names (nothing: none). */
export interface ListField {
  mode: 'any' | 'only';
  text: string;
}

export interface AllowFields {
  models: ListField;
  providers: ListField;
  /** One capability a line: `search` (all its tools) or `search: query, fetch`. */
  capabilities: ListField;
}

const items = (text: string) =>
  text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);

const listOf = (field: ListField): string[] | undefined =>
  field.mode === 'any' ? undefined : [...new Set(items(field.text))];

export function capabilitiesOf(field: ListField): Allow['capabilities'] {
  if (field.mode === 'any') return undefined;
  return field.text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [id, tools] = line.split(':', 2) as [string, string | undefined];
      return tools === undefined ? { id: id.trim() } : { id: id.trim(), tools: [...new Set(items(tools))] };
    });
}

export function allowOf(fields: AllowFields): Allow {
  const allow: Allow = {};
  const models = listOf(fields.models);
  const providers = listOf(fields.providers);
  const capabilities = capabilitiesOf(fields.capabilities);
  if (models) allow.models = models;
  if (providers) allow.providers = providers;
  if (capabilities) allow.capabilities = capabilities;
  return allow;
}

const fieldOf = (list: readonly string[] | undefined): ListField =>
  list === undefined ? { mode: 'any', text: '' } : { mode: 'only', text: list.join(', ') };

export function fieldsOf(allow: Allow): AllowFields {
  return {
    models: fieldOf(allow.models),
    providers: fieldOf(allow.providers),
    capabilities:
      allow.capabilities === undefined
        ? { mode: 'any', text: '' }
        : {
            mode: 'only',
            text: allow.capabilities.map((c) => (c.tools ? `${c.id}: ${c.tools.join(', ')}` : c.id)).join('\n'),
          },
  };
}

export const EMPTY_FIELDS: AllowFields = fieldsOf({});

const listInWords = (list: readonly string[] | undefined) =>
  list === undefined ? 'any' : list.length === 0 ? 'none' : list.join(', ');

/** `Models: gpt-5 · Providers: any · Capabilities: search (query)`. */
export function describeAllow(allow: Allow): string {
  const capabilities =
    allow.capabilities === undefined
      ? 'any'
      : allow.capabilities.length === 0
        ? 'none'
        : allow.capabilities
            .map((c) => (c.tools ? `${c.id} (${listInWords(c.tools)})` : `${c.id} (all tools)`))
            .join(', ');
  const lists = [
    `Models: ${listInWords(allow.models)}`,
    `Providers: ${listInWords(allow.providers)}`,
    `Capabilities: ${capabilities}`,
  ];
  return lists.join(' · ');
}

/** `The organization`, `Folder "Design"`, `Team "Platform"`: a name from `names` when it has one. */
export function describeScope(scope: Policy['scope'], names: ReadonlyMap<string, string>): string {
  if (scope.type === 'organization') return 'The organization';
  const name = scope.id === undefined ? undefined : names.get(scope.id);
  const kind = scope.type[0]!.toUpperCase() + scope.type.slice(1);
  return name === undefined ? `${kind} ${scope.id ?? ''}`.trim() : `${kind} "${name}"`;
}
