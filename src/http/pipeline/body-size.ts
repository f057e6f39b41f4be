import type { CapacityService } from '../../capacity/service.js';
import { needsOrganization } from '../../auth/rules.js';
import { ApiError } from '../../errors/api-error.js';
import { carriesBody, contextOf, established, type Stage } from './stage.js';

export const payloadTooLarge = (limit: number, bytes?: number) =>
  new ApiError(
    413,
    'payload_too_large',
    bytes === undefined
      ? `The request body is larger than the ${limit} bytes this organization accepts (requestBodySize).`
      : `The request body has ${bytes} bytes; the limit here is ${limit} (requestBodySize).`,
  );

/**
 * 413 `payload_too_large` for a body over the organization's `requestBodySize` (never above the
 * server's own limit): at once from `Content-Length`, before a byte of the body is read; the
 * parser enforces the same limit while the body streams, whatever `Content-Length` claimed.
 */
export const limitBodySize =
  (capacity: CapacityService, serverLimit: number): Stage =>
  ({ method, rule }) => {
    if (!carriesBody(method)) return undefined;
    return (req, res, next) => {
      const context = contextOf(res);
      const check = (limit: number) => {
        context.bodyLimit = limit;
        const declared = Number(req.headers['content-length']);
        if (declared > limit) throw payloadTooLarge(limit, declared);
        next();
      };
      if (!needsOrganization(rule)) return check(serverLimit);
      const limit = capacity.bodyLimitOf(established(context.access, 'the organization').organization.id, serverLimit);
      if (limit instanceof Promise) return limit.then(check);
      check(limit);
    };
  };
