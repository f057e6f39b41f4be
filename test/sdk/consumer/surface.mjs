// The public surface of the packed SDK, seen from ESM and from CommonJS in one process.
import { createRequire } from 'node:module';
import * as esm from '@agent-hub/org-admin-sdk';

const cjs = createRequire(import.meta.url)('@agent-hub/org-admin-sdk');
const client = esm.createOrgAdminClient({ baseUrl: 'http://127.0.0.1:9', orgSlug: 'acme' });
const cjsClient = cjs.createOrgAdminClient({ baseUrl: 'http://127.0.0.1:9', orgSlug: 'acme' });
const init = { status: 404, code: 'project_not_found', message: 'x', body: undefined };

console.log(
  JSON.stringify({
    esmExports: Object.keys(esm).sort(),
    cjsExports: Object.keys(cjs)
      .filter((k) => k !== '__esModule')
      .sort(),
    esmMethods: Object.keys(client).sort(),
    cjsMethods: Object.keys(cjsClient).sort(),
    crossCopyInstanceof:
      new cjs.ApiError(init) instanceof esm.ApiError && new esm.ApiError(init) instanceof cjs.ApiError,
  }),
);
