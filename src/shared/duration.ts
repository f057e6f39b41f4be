const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** A positive whole number of minutes, hours, days or weeks (`90m`, `12h`, `30d`, `2w`) in ms; undefined otherwise. */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9][0-9]{0,5})([mhdw])$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
