/**
 * What the capacity screen says about each of the 23 dimensions: a readable name, the quantity its
 * numbers measure (the contract's units: bytes, seconds, requests per minute, millicores, counts),
 * the organization floor where one exists, and who enforces it.
 */
import type { Schemas } from '../../lib/api-client';
import type { Quantity } from '../../lib/units';

export type Dimension = Schemas['CapacityDimension'];

type DimensionInfo = { label: string; quantity: Quantity; floor?: number; enforcedBy: string };

const SERVICE = 'this service';
const SKILLS = 'skill ingestion';
const RUNTIME = 'the agent runtime';

export const DIMENSIONS: Record<Dimension, DimensionInfo> = {
  requestRate: { label: 'Request rate', quantity: 'perMinute', floor: 1, enforcedBy: SERVICE },
  requestBodySize: { label: 'Request body size', quantity: 'bytes', floor: 65_536, enforcedBy: SERVICE },
  agentConcurrency: { label: 'Concurrent agents', quantity: 'count', enforcedBy: RUNTIME },
  admissionQueueLength: { label: 'Admission queue length', quantity: 'count', enforcedBy: RUNTIME },
  admissionQueueWait: { label: 'Admission queue wait', quantity: 'seconds', enforcedBy: RUNTIME },
  fileSize: { label: 'Skill file size', quantity: 'bytes', enforcedBy: SKILLS },
  attachmentCount: { label: 'Files per skill', quantity: 'count', enforcedBy: SKILLS },
  archiveExpansion: { label: 'Skill archive expansion', quantity: 'bytes', enforcedBy: SKILLS },
  projectStorage: { label: 'Project storage', quantity: 'bytes', enforcedBy: RUNTIME },
  organizationStorage: { label: 'Organization storage', quantity: 'bytes', enforcedBy: RUNTIME },
  memberCount: { label: 'Members', quantity: 'count', enforcedBy: SERVICE },
  projectCount: { label: 'Projects', quantity: 'count', enforcedBy: SERVICE },
  teamCount: { label: 'Teams', quantity: 'count', enforcedBy: SERVICE },
  folderCount: { label: 'Folders', quantity: 'count', enforcedBy: SERVICE },
  sessionCount: { label: 'Sessions', quantity: 'count', enforcedBy: RUNTIME },
  runWallTime: { label: 'Run wall time', quantity: 'seconds', enforcedBy: RUNTIME },
  runTurns: { label: 'Turns per run', quantity: 'count', enforcedBy: RUNTIME },
  runToolCalls: { label: 'Tool calls per run', quantity: 'count', enforcedBy: RUNTIME },
  toolWallTime: { label: 'Tool wall time', quantity: 'seconds', enforcedBy: RUNTIME },
  runOutputSize: { label: 'Run output size', quantity: 'bytes', enforcedBy: RUNTIME },
  processMemory: { label: 'Process memory', quantity: 'bytes', enforcedBy: RUNTIME },
  processCpu: { label: 'Process CPU', quantity: 'millicores', enforcedBy: RUNTIME },
  processCount: { label: 'Processes', quantity: 'count', enforcedBy: RUNTIME },
};

/**
 * The server's reasons for a refused PUT, by dimension. A 400 names dimensions in `details`
 * (`/body/limits/fileSize`); a 422 names every rejected one in its message
 * (`Nothing was changed: fileSize 6291456 is above its platform ceiling of 5242880; …`).
 * Reasons that name no dimension go to every dimension sent, so none is dropped.
 */
export function reasonsByDimension(error: unknown, sent: readonly Dimension[]): Map<Dimension, string[]> {
  const reasons = new Map<Dimension, string[]>();
  const add = (dimension: Dimension, reason: string) =>
    reasons.set(dimension, [...(reasons.get(dimension) ?? []), reason]);
  const body = (error ?? {}) as { error?: { message?: unknown; details?: unknown } };
  const message = typeof body.error?.message === 'string' ? body.error.message : '';
  const details = Array.isArray(body.error?.details) ? body.error.details : [];
  const unplaced: string[] = [];
  for (const detail of details as { path?: unknown; message?: unknown }[]) {
    const dimension = typeof detail.path === 'string' ? detail.path.match(/^\/body\/limits\/(\w+)/)?.[1] : undefined;
    const text = `${dimension ?? ''} ${String(detail.message ?? '')}`.trim();
    if (dimension && dimension in DIMENSIONS) add(dimension as Dimension, text);
    else unplaced.push(text);
  }
  if (details.length === 0 && message) {
    const list = message.replace(/^Nothing was changed:\s*/, '').replace(/\.$/, '');
    for (const part of list.split(/;\s*/)) {
      const dimension = part.match(/^(\w+)\s/)?.[1];
      if (dimension && dimension in DIMENSIONS) add(dimension as Dimension, part);
      else unplaced.push(message);
    }
  }
  for (const reason of new Set(unplaced)) for (const dimension of sent) add(dimension, reason);
  return reasons;
}
