import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OPERATION_ACTIONS } from './actions';

const CONTRACT = fileURLToPath(new URL('../../../../openapi.yaml', import.meta.url));

describe('the action picker', () => {
  it("offers exactly the contract's operations that change state", () => {
    const document = parse(readFileSync(CONTRACT, 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string; 'x-changes-nothing'?: boolean }>>;
    };
    const changing = Object.values(document.paths)
      .flatMap((item) => Object.entries(item))
      .filter(
        ([method, operation]) =>
          method !== 'get' && method !== 'parameters' && operation.operationId && !operation['x-changes-nothing'],
      )
      .map(([, operation]) => operation.operationId!)
      .sort();
    expect([...OPERATION_ACTIONS].sort()).toEqual(changing);
  });
});
