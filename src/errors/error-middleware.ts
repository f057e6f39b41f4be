import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { error as validatorErrors } from 'express-openapi-validator';
import type { Logger } from '../log/logger.js';
import { requestLogger } from '../http/request-log.js';
import { ApiError, type ErrorDetail } from './api-error.js';
import { environmentFault } from './environment-fault.js';

/** Unknown paths under the API answer in the same envelope as everything else. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError(404, 'not_found', `No route for ${req.method} ${req.path}.`));
};

/**
 * Renders every error as `{error: {code, message}}`. Errors a client caused keep their status
 * and code; anything unexpected is logged with the request id and answered with a bare 500,
 * so no stack trace, SQL or file path ever reaches a client.
 */
export function errorMiddleware(fallbackLogger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const log = requestLogger(res, fallbackLogger);
    const apiError = toApiError(err);
    if (!apiError) {
      log.error({ err }, 'unhandled error');
    } else if (apiError.status >= 500) {
      log.error({ err, code: apiError.code }, 'server error');
    }
    const rendered =
      apiError ??
      new ApiError(500, 'internal_error', `Internal error; quote request id ${String(res.locals.requestId ?? 'n/a')}.`);
    if (res.headersSent) return;
    (res.locals as RenderedLocals)[RENDERED_CODE] = rendered.code;
    for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
    res.status(rendered.status).json({
      error: {
        code: rendered.code,
        message: rendered.message,
        ...(rendered.details?.length ? { details: rendered.details } : {}),
        ...rendered.extra,
      },
    });
  };
}

const RENDERED_CODE = Symbol('renderedErrorCode');
type RenderedLocals = { [RENDERED_CODE]?: string };

/** The `error.code` the renderer answered the request with; undefined when it did not answer it. */
export const renderedErrorCode = (res: Response): string | undefined => (res.locals as RenderedLocals)[RENDERED_CODE];

function toApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const fault = environmentFault(err);
  if (fault) return fault;
  if (err instanceof validatorErrors.BadRequest || err instanceof validatorErrors.UnsupportedMediaType) {
    const details = err.errors.map((e) => ({ path: e.path, message: e.message }));
    return new ApiError(
      400,
      'validation_failed',
      summarize(details) ?? 'The request does not match the API contract.',
      details,
    );
  }
  if (err instanceof validatorErrors.NotFound) return new ApiError(404, 'not_found', 'No such endpoint.');
  if (err instanceof validatorErrors.MethodNotAllowed) {
    const allow = err.headers?.Allow;
    return new ApiError(
      405,
      'method_not_allowed',
      'This method is not allowed on this path.',
      undefined,
      allow ? { Allow: allow } : undefined,
    );
  }
  if (err instanceof validatorErrors.RequestEntityTooLarge) return tooLarge();
  const type = (err as { type?: unknown }).type;
  // Errors raised by express.json() before the validator sees the request.
  if (type === 'entity.too.large') return tooLarge();
  if (type === 'entity.parse.failed')
    return new ApiError(400, 'validation_failed', 'The request body is not valid JSON.');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError(400, 'validation_failed', 'The request body must be UTF-8 JSON.');
  }
  return clientErrorOf(err);
}

/**
 * An error Express, its router or a middleware of theirs raised for something the client sent
 * (`status` or `statusCode` 400–499, as http-errors sets it): the router's URIError for a path
 * whose percent-encoding does not decode to UTF-8, for one. Answered with the contract's code
 * for that status; a status the contract has no code for becomes 400 `validation_failed`.
 * Their own messages are not passed on: they echo the input and name internals.
 */
function clientErrorOf(err: unknown): ApiError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  if (typeof code !== 'number' || code < 400 || code > 499) return undefined;
  if (err instanceof URIError)
    return new ApiError(
      400,
      'validation_failed',
      'The request path is not valid percent-encoded UTF-8 (a "%" must be followed by two hex digits, and the ' +
        'bytes they encode must be UTF-8).',
    );
  if (code === 404) return new ApiError(404, 'not_found', 'No such resource.');
  if (code === 413) return tooLarge();
  if (code === 415) return new ApiError(415, 'unsupported_media_type', 'The request body must be JSON.');
  return new ApiError(400, 'validation_failed', 'The request is malformed.');
}

const tooLarge = () => new ApiError(413, 'payload_too_large', 'The request body is larger than this service accepts.');

function summarize(details: ErrorDetail[]): string | undefined {
  const first = details[0];
  if (!first) return undefined;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `${first.path.replace(/^\//, '').replace(/\//g, '.')} ${first.message}${more}`;
}
