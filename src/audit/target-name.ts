/**
 * How an audit event's target is named beside its sentence, in the web app and by `hub audit`:
 * its stored label, else its kind in words ("team member"). Imports nothing, so the web app
 * shares it.
 */
export const targetName = (target: { type: string; label: string | null }): string =>
  target.label ?? target.type.replaceAll('_', ' ');
