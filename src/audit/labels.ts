/**
 * How the writers of audit events name targets that have no single name of their own. Each kind
 * of target is named in one place, here or beside the one writer of its events.
 */

/** A webhook is known by its receiver's host: the whole URL may carry a secret in its path or query. */
export function webhookLabel(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an endpoint';
  }
}

/** A part named within a whole: a team member within their team, a team's grant on a project. */
export const withinLabel = (part: string | null | undefined, whole: string | null | undefined): string | null =>
  part && whole ? `${part} in ${whole}` : (part ?? whole ?? null);

/** An invitation is known by the address it is for, else as one of its role. */
export const invitationLabel = (invitation: { email: string | null; role: string }): string =>
  invitation.email ?? `a ${invitation.role} invitation`;
