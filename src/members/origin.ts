/**
 * What made a membership or a team membership: an admin (`manual`), an invitation, the host
 * console, the automatic-membership rule, or the directory of an organization's identity provider
 * (`idp:<providerId>`). A sign-in changes only the rows of its own provider's origin.
 */
export type MembershipOrigin = 'manual' | 'invitation' | 'console' | 'autoJoin' | `idp:${string}`;
