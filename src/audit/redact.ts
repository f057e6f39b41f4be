/** What every secret in an audit event is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Keys whose values are secrets wherever they appear: credentials typed by an admin (provider
 * API keys, the chat application's secret, a capability's headers) and tokens. Events are built
 * from the API's own representations, which carry none of these; this pass is the second line.
 */
const SECRET_KEY =
  /^(authToken|vendorApiKey|appSecret|verificationToken|encryptKey|apiKey|secret|headers|token|tokenHash|password)$/i;

/** A deep copy of `value` with every secret-named field's value replaced by `"[redacted]"`. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && inner !== null && inner !== undefined ? REDACTED : redactSecrets(inner);
  }
  return out;
}
