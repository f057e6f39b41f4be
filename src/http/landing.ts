import express, { type Router } from 'express';
import { sessionToken } from '../auth/authorize.js';
import type { Services } from '../app/services.js';
import { escapeHtml, page } from './html.js';
import { OPENAPI_PATH } from './openapi-document.js';

/**
 * What a person sees outside the API: `/` (where a login link lands; the admin app is served
 * separately) tells who is signed in, and `/openapi.yaml` serves the contract to integrators.
 */
export function landingRoutes(services: Services): Router {
  const router = express.Router();
  router.get('/openapi.yaml', (_req, res) => {
    res.type('application/yaml').sendFile(OPENAPI_PATH);
  });
  router.get('/', async (req, res) => {
    const session = await services.sessions.authenticate(sessionToken(req));
    let body: string;
    if (session) {
      const orgs = await services.organizations.listMembershipsOf(session.user.id);
      const list = orgs
        .map(({ organization, role }) => `<li><code>${escapeHtml(organization.slug)}</code> — ${escapeHtml(organization.name)} (${role})</li>`)
        .join('');
      body = `<p>Signed in as <strong>${escapeHtml(session.user.displayName)}</strong> (<code>${escapeHtml(session.user.imOpenId)}</code>).</p>
<p>Your organizations:</p><ul>${list || '<li>none yet</li>'}</ul>
<p>The API answers at <a href="/api/me"><code>/api/me</code></a> and <code>/api/org/&lt;slug&gt;/…</code>; its contract is <a href="/openapi.yaml"><code>/openapi.yaml</code></a>.</p>`;
    } else {
      body = `<p>You are not signed in. An operator can print a one-time login link with <code>hub login-link &lt;imOpenId&gt;</code>.</p>
<p>The API contract is <a href="/openapi.yaml"><code>/openapi.yaml</code></a>.</p>`;
    }
    res.type('html').send(page('Org Admin Service', body));
  });
  return router;
}
