import type { Rule } from '../auth/rules.js';
import type { OperationModule } from '../http/operation-table.js';
import type { AdmissionService } from './admission.js';
import { policyProjection } from './projection.js';
import type { PolicyService } from './service.js';

const { toApi } = policyProjection;

/**
 * Who may ask admission: the one place its authorization is decided (with its `x-authorization`
 * scope in openapi.yaml). Org admins, to try a run out; a runtime's credential is another caller.
 */
const ADMISSION_RULE = 'orgAdmin' satisfies Rule;

/** Usage policies (org admins only) and admission (docs/policies-and-admission.md). */
export function policyOperations(policies: PolicyService, admission: AdmissionService) {
  return {
    listPolicies: {
      rule: 'orgAdmin',
      handle: async ({ access }) => ({
        policies: (await policies.list(access.organization.id)).map(toApi),
      }),
    },

    createPolicy: {
      rule: 'orgAdmin',
      status: 201,
      handle: async ({ access, body }) => toApi(await policies.create(access.organization.id, body)),
    },

    getPolicy: {
      rule: 'orgAdmin',
      handle: async ({ access, params }) => toApi(await policies.get(access.organization.id, params.policyId)),
    },

    updatePolicy: {
      rule: 'orgAdmin',
      handle: async ({ access, params, body }) =>
        toApi(await policies.update(access.organization.id, params.policyId, body)),
    },

    deletePolicy: {
      rule: 'orgAdmin',
      status: 204,
      async handle({ access, params }) {
        await policies.delete(access.organization.id, params.policyId);
        return undefined;
      },
    },

    admitRun: {
      rule: ADMISSION_RULE,
      handle: async ({ access, body }) => admission.admit(access.organization.id, body),
    },
  } satisfies OperationModule;
}
