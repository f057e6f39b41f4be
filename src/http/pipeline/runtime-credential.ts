import { looksLikeApiToken } from '../../api-tokens/secret.js';
import { bearerToken, sessionToken } from '../../auth/authorize.js';
import { ApiError, forbidden, unauthenticated } from '../../errors/api-error.js';
import { describeOperation } from '../../projects/project-guard.js';
import type { RuntimeCredentialService } from '../../runtime/credential-service.js';
import type { AddressLimit } from './address-limit.js';
import { contextOf, type Stage } from './stage.js';

/**
 * The `platformRuntime` rule: the caller must present a live platform runtime credential
 * (`Authorization: Bearer hubr_…`). A session or an organization's API token is refused with 403
 * `runtime_credential_required` whoever holds it, an org admin's included: these operations hand
 * out connection secrets to the host's runtime, never to an organization's people or accounts.
 * Nothing at all is 401 `unauthenticated`; an unknown or revoked credential 401 `token_invalid`,
 * counted against the client address's `failures` as refused tokens are.
 */
export const authenticateRuntime =
  (credentials: RuntimeCredentialService, failures: AddressLimit): Stage =>
  (operation) => {
    if (operation.rule !== 'platformRuntime') return undefined;
    const named = describeOperation(operation);
    const onlyRuntime = (what: string) =>
      forbidden(
        'runtime_credential_required',
        `${named} is for the host's agent runtime, with a platform runtime credential (hubr_…); ` +
          `${what} cannot call it.`,
      );
    return async (req, res, next) => {
      const bearer = bearerToken(req);
      if (bearer === undefined) {
        if (sessionToken(req) !== undefined) throw onlyRuntime('a signed-in session');
        throw unauthenticated(`${named} needs a platform runtime credential: Authorization: Bearer hubr_….`);
      }
      if (looksLikeApiToken(bearer)) throw onlyRuntime("an organization's API token");
      const credential = await credentials.authenticate(bearer);
      if (!credential) {
        throw (
          failures.take(req) ??
          new ApiError(
            401,
            'token_invalid',
            'This runtime credential is unknown or revoked; make one with "hub runtime-credential create".',
          )
        );
      }
      contextOf(res).runtimeCredential = credential;
      next();
    };
  };
