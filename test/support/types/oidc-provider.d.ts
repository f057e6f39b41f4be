// The part of oidc-provider's API the tests use (the package ships no types).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export interface Configuration {
    clients?: Array<Record<string, unknown>>;
    findAccount?: (ctx: unknown, sub: string) => Account | undefined | Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    cookies?: { keys?: string[] };
    jwks?: { keys: Array<Record<string, unknown>> };
    pkce?: { required?: () => boolean };
    features?: Record<string, unknown>;
    ttl?: Record<string, number>;
    [key: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
