/**
 * Numbers with their units, as people read them: sizes in binary units (KiB, MiB, GiB), times as
 * durations, counts with thousands separators. The server always speaks bytes and seconds; these
 * only change how a number is shown and typed.
 */

const BYTE_UNITS = [
  { unit: 'TiB', factor: 1024 ** 4 },
  { unit: 'GiB', factor: 1024 ** 3 },
  { unit: 'MiB', factor: 1024 ** 2 },
  { unit: 'KiB', factor: 1024 },
] as const;

const DURATION_PARTS = [
  { unit: 'd', factor: 86_400 },
  { unit: 'h', factor: 3_600 },
  { unit: 'min', factor: 60 },
  { unit: 's', factor: 1 },
] as const;

const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** `1234567` → `1,234,567`; fractions keep at most two digits. */
export const formatCount = (n: number): string => decimal.format(n);

/** `1, 'role'` → `1 role`; `3, 'role'` → `3 roles` (nouns with a plain -s plural). */
export const plural = (n: number, noun: string): string => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

/** `8388608` → `8 MiB`, `1536` → `1.5 KiB`, `512` → `512 B`: the largest unit that keeps the number ≥ 1. */
export function formatBytes(bytes: number): string {
  for (const { unit, factor } of BYTE_UNITS) {
    if (Math.abs(bytes) >= factor) return `${decimal.format(bytes / factor)} ${unit}`;
  }
  return `${decimal.format(bytes)} B`;
}

/** `300` → `5 min`, `3660` → `1 h 1 min`, `90061` → `1 d 1 h 1 min 1 s`, `0.5` → `0.5 s`. */
export function formatDuration(seconds: number): string {
  if (seconds < 1) return `${decimal.format(seconds)} s`;
  const parts: string[] = [];
  let rest = seconds;
  for (const { unit, factor } of DURATION_PARTS) {
    const whole = unit === 's' ? rest : Math.floor(rest / factor);
    if (whole > 0) parts.push(`${decimal.format(whole)} ${unit}`);
    rest -= Math.floor(rest / factor) * factor;
  }
  return parts.join(' ');
}

/** What a dimension's numbers measure, as the contract says (`CapacityDimension`). */
export type Quantity = 'bytes' | 'seconds' | 'millicores' | 'perMinute' | 'count';

/** A number of that quantity for reading: `8 MiB`, `5 min`, `600 / min`, `2,000 millicores`, `10,000`. */
export function formatQuantity(value: number, quantity: Quantity): string {
  switch (quantity) {
    case 'bytes':
      return formatBytes(value);
    case 'seconds':
      return formatDuration(value);
    case 'millicores':
      return `${formatCount(value)} millicores`;
    case 'perMinute':
      return `${formatCount(value)} / min`;
    case 'count':
      return formatCount(value);
  }
}

/** The units a value of the quantity may be typed in, smallest first, with their size in the base unit. */
export function inputUnits(quantity: Quantity): { unit: string; factor: number }[] {
  switch (quantity) {
    case 'bytes':
      return [{ unit: 'B', factor: 1 }, ...[...BYTE_UNITS].reverse()];
    case 'seconds':
      return [...DURATION_PARTS].reverse();
    case 'millicores':
      return [{ unit: 'millicores', factor: 1 }];
    case 'perMinute':
      return [{ unit: 'per minute', factor: 1 }];
    case 'count':
      return [{ unit: '', factor: 1 }];
  }
}

/**
 * The largest unit in which the value is a whole number, to prefill an input: 8388608 bytes is
 * 8 MiB, 90 seconds is 90 s (not 1.5 min). Zero and fractions stay in the base unit.
 */
export function bestInputUnit(value: number, quantity: Quantity): { amount: number; unit: string } {
  const units = inputUnits(quantity);
  for (const { unit, factor } of [...units].reverse()) {
    if (value !== 0 && Number.isInteger(value / factor)) return { amount: value / factor, unit };
  }
  return { amount: value, unit: units[0]?.unit ?? '' };
}

/**
 * An amount typed in a unit, in the base unit the server takes (`1.5` `KiB` → 1536). Amounts typed
 * in a larger unit are rounded to a whole base unit (1.1 MiB is 1153434 bytes); unknown units throw.
 */
export function toBaseUnit(amount: number, unit: string, quantity: Quantity): number {
  const found = inputUnits(quantity).find((u) => u.unit === unit);
  if (!found) throw new Error(`${unit} is no unit of ${quantity}`);
  return found.factor === 1 ? amount : Math.round(amount * found.factor);
}
