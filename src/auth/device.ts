/**
 * A session's device as a person recognises it ("Firefox on Linux"), read from the user agent
 * its browser sends. Only the common browsers and systems are named; any other agent is shown
 * by its first word, so a script or a new browser still reads as something.
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone|\biPad|\biPod/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const named = (table: Array<[RegExp, string]>, agent: string) => table.find(([pattern]) => pattern.test(agent))?.[1];

export function describeDevice(userAgent: string | null): string | null {
  const agent = userAgent?.trim();
  if (!agent) return null;
  const browser = named(BROWSERS, agent);
  const system = named(SYSTEMS, agent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? agent.split(/[\s/;(]/)[0]!.slice(0, 60);
}
