import type { Schema } from '../api/types.js';

/**
 * What one credential version seals: the whole request that created it, identifiers included,
 * so the resolver hands out a base URL or app id that was authenticated together with its
 * secret (an attacker who can write the database cannot point a token at another host).
 */
export type ProviderCredentialInput = Schema<'RotateProviderConnectionRequest'>;
export type ChatApplicationCredentialInput = Schema<'PutChatApplicationConnectionRequest'>;
/** What a capability version seals: its endpoint with the headers (secrets) that go to it. */
export interface CapabilityCredentials {
  endpointUrl: string;
  headers: Record<string, string>;
}

export function encodeProviderCredentials(input: ProviderCredentialInput): Buffer {
  return encode({ baseUrl: input.baseUrl, authToken: input.authToken, vendorApiKey: input.vendorApiKey });
}

export function encodeChatApplicationCredentials(input: ChatApplicationCredentialInput): Buffer {
  return encode({
    appId: input.appId,
    appSecret: input.appSecret,
    botOpenId: input.botOpenId,
    verificationToken: input.verificationToken,
    encryptKey: input.encryptKey,
  });
}

export function encodeCapabilityCredentials(input: CapabilityCredentials): Buffer {
  return Buffer.from(JSON.stringify({ endpointUrl: input.endpointUrl, headers: input.headers }), 'utf8');
}

export function decodeCapabilityCredentials(plaintext: Buffer): CapabilityCredentials {
  const fields = parsePayload(plaintext);
  const { endpointUrl, headers } = fields;
  const isHeaderMap = (value: unknown): value is Record<string, string> =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string');
  if (typeof endpointUrl !== 'string' || !isHeaderMap(headers)) throw payloadShapeError();
  return { endpointUrl, headers: { ...headers } };
}

export function decodeProviderCredentials(plaintext: Buffer): ProviderCredentialInput {
  const fields = decode(plaintext, ['baseUrl', 'authToken'], ['vendorApiKey']);
  return { baseUrl: fields.baseUrl!, authToken: fields.authToken!, ...optional('vendorApiKey', fields.vendorApiKey) };
}

export function decodeChatApplicationCredentials(plaintext: Buffer): ChatApplicationCredentialInput {
  const fields = decode(plaintext, ['appId', 'appSecret', 'botOpenId'], ['verificationToken', 'encryptKey']);
  return {
    appId: fields.appId!,
    appSecret: fields.appSecret!,
    botOpenId: fields.botOpenId!,
    ...optional('verificationToken', fields.verificationToken),
    ...optional('encryptKey', fields.encryptKey),
  };
}

/** JSON with the absent optional fields left out (JSON.stringify drops undefined). */
function encode(fields: Record<string, string | undefined>): Buffer {
  return Buffer.from(JSON.stringify(fields), 'utf8');
}

function decode(plaintext: Buffer, required: string[], optionalFields: string[]): Record<string, string | undefined> {
  const record = parsePayload(plaintext);
  for (const key of required) if (typeof record[key] !== 'string') throw payloadShapeError();
  for (const key of optionalFields)
    if (record[key] !== undefined && typeof record[key] !== 'string') throw payloadShapeError();
  return record as Record<string, string | undefined>;
}

/** The payload as a JSON object; the plaintext buffer is wiped either way. */
function parsePayload(plaintext: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext.toString('utf8'));
  } catch {
    parsed = undefined;
  } finally {
    plaintext.fill(0);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw payloadShapeError();
  return parsed as Record<string, unknown>;
}

// The payload authenticated, so a wrong shape is a bug in this service, never a client's input.
const payloadShapeError = () => new Error('a sealed credential payload does not have the shape this service writes');

const optional = <K extends string>(key: K, value: string | undefined): { [P in K]?: string } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
