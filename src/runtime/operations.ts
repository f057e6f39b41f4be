import type { OperationModule } from '../http/operation-table.js';
import type { RuntimeResolve } from './resolve.js';

/** What the host's agent runtime calls with its platform runtime credential. */
export function runtimeOperations(resolve: RuntimeResolve) {
  return {
    resolveRuntimeCredential: {
      rule: 'platformRuntime',
      handle: ({ params, body, res }) => resolve.resolve(params.orgSlug, body, res),
    },
  } satisfies OperationModule;
}
