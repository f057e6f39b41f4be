import type { Schemas } from '../../../lib/api-client';
import { homePath } from '../../../lib/authorization';

/** Where an accepted invitation lands: the organization's home for the role it gave. */
export const homeOf = (joined: Schemas['InvitationAccepted']) =>
  homePath({ slug: joined.organization.slug, role: joined.member.role });
