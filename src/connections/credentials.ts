import type { Schema } from '../http/operation-types.js';

/**
 * What one credential version seals: the whole request that created it, identifiers included,
 * so the resolver hands out a base URL or app id that was authenticated together with its
 * secret (an attacker who can write the database cannot point a token at another host).
 */
export type ProviderCredentialInput = Schema<'RotateProviderConnectionRequest'>;
export type ChatApplicationCredentialInput = Schema<'PutChatApplicationConnectionRequest'>;

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
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext.toString('utf8'));
  } catch {
    parsed = undefined;
  } finally {
    plaintext.fill(0);
  }
  // The payload authenticated, so a wrong shape is a bug in this service, never a client's input.
  const fail = () => new Error('a sealed credential payload does not have the shape this service writes');
  if (typeof parsed !== 'object' || parsed === null) throw fail();
  const record = parsed as Record<string, unknown>;
  for (const key of required) if (typeof record[key] !== 'string') throw fail();
  for (const key of optionalFields) if (record[key] !== undefined && typeof record[key] !== 'string') throw fail();
  return record as Record<string, string | undefined>;
}

const optional = <K extends string>(key: K, value: string | undefined): { [P in K]?: string } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
