/**
 * Whether a path is one of the operations endpoints (/healthz, /readyz, /metrics, /docs and what
 * /docs loads), matched on its first segment as Express matches routes: any case, a trailing
 * slash allowed.
 */
export const isOperationsPath = (path: string): boolean => OPERATIONS_PATH.test(path);

const OPERATIONS_PATH = /^\/(?:healthz|readyz|metrics|docs)(?:\/|$)/i;
