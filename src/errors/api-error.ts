/**
 * The one error type services throw for anything a client caused. Each carries an HTTP status
 * and a code from the decided error table; the error middleware renders it as
 * `{error: {code, message}}`. Anything else that reaches the middleware is a bug and becomes
 * a 500 `internal_error` whose message says nothing about the cause.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ReadonlyArray<ErrorDetail>,
    readonly headers?: Readonly<Record<string, string>>,
    /** More members of the `error` object, as openapi.yaml `Error` names them (`requiredSignIn`). */
    readonly extra?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** What in a request is refused (a JSON pointer such as `/body/name` or `/query/from`), and why. */
export interface ErrorDetail {
  path: string;
  message: string;
}

export const badRequest = (message: string, details?: ReadonlyArray<ErrorDetail>) =>
  new ApiError(400, 'validation_failed', message, details);
/** 400 for one refused part of the request, its message saying where and why. */
export const badRequestAt = (detail: ErrorDetail) => badRequest(`${detail.path} ${detail.message}.`, [detail]);
export const unauthenticated = (message = 'Sign in to continue.') => new ApiError(401, 'unauthenticated', message);
export const forbidden = (code: ForbiddenCode, message: string) => new ApiError(403, code, message);
export const notFound = (code: NotFoundCode, message: string) => new ApiError(404, code, message);
export const conflict = (code: ConflictCode, message: string) => new ApiError(409, code, message);
export const gone = (code: GoneCode, message: string) => new ApiError(410, code, message);
export const unprocessable = (code: UnprocessableCode, message: string) => new ApiError(422, code, message);

export type ForbiddenCode =
  | 'csrf_rejected'
  | 'org_admin_required'
  | 'owner_required'
  | 'project_access_denied'
  | 'project_manage_required'
  | 'platform_managed_connection'
  | 'token_scope_required'
  | 'runtime_credential_required'
  | 'invitation_email_mismatch'
  | 'transfer_not_yours'
  | 'sso_required'
  | 'login_links_disabled';

export type NotFoundCode =
  | 'not_found'
  | 'org_not_found'
  | 'member_not_found'
  | 'user_not_found'
  | 'team_not_found'
  | 'folder_not_found'
  | 'project_not_found'
  | 'binding_not_found'
  | 'grant_not_found'
  | 'connection_not_found'
  | 'role_not_found'
  | 'skill_not_found'
  | 'token_not_found'
  | 'service_account_not_found'
  | 'invitation_not_found'
  | 'webhook_not_found'
  | 'delivery_not_found'
  | 'budget_not_found'
  | 'policy_not_found'
  | 'domain_not_found'
  | 'identity_not_found'
  | 'transfer_not_found'
  | 'session_not_found'
  | 'access_request_not_found'
  | 'identity_provider_not_found';

export type ConflictCode =
  | 'slug_taken'
  | 'connection_unavailable'
  | 'already_member'
  | 'already_team_member'
  | 'last_owner'
  | 'folder_cycle'
  | 'folder_not_empty'
  | 'project_archived'
  | 'capacity_exceeded'
  | 'role_is_default'
  | 'invitation_used'
  | 'invitation_not_pending'
  | 'domain_exists'
  | 'domain_claimed'
  | 'domain_in_use'
  | 'last_identity'
  | 'organization_deleting'
  | 'organization_not_deleting'
  | 'transfer_pending'
  | 'transfer_not_pending'
  | 'already_owner'
  | 'service_account_exists'
  | 'policy_exists'
  | 'service_account_disabled'
  | 'display_name_from_provider'
  | 'access_already_held'
  | 'access_request_pending'
  | 'access_request_not_pending'
  | 'identity_provider_exists'
  | 'identity_provider_in_use';

export type UnprocessableCode =
  | 'capacity_above_ceiling'
  | 'capacity_below_floor'
  | 'capacity_no_ceiling'
  | 'invalid_skill'
  | 'unknown_skill'
  | 'unknown_model'
  | 'url_not_allowed'
  | 'domain_not_verified'
  | 'domain_verification_failed'
  | 'token_policy_violation'
  | 'runtime_scope_service_account_only'
  | 'invalid_usage_run'
  | 'idempotency_key_reused'
  | 'identity_provider_check_failed';

export type GoneCode = 'invitation_expired' | 'invitation_revoked';
