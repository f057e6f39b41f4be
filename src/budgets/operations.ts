import type { OperationModule } from '../http/operation-table.js';
import { budgetProjection } from './projection.js';
import type { BudgetService } from './service.js';

const { toApi: toBudget } = budgetProjection;

/** Budgets and their live status (docs/decisions.md, "Budgets and spend alerts"). Org admins only. */
export function budgetOperations(budgets: BudgetService) {
  return {
    listBudgets: {
      rule: 'orgAdmin',
      async handle(ctx) {
        const { items } = budgetProjection.pageOf(await budgets.list(ctx.access.organization.id), {});
        return { budgets: items };
      },
    },

    listBudgetMembers: {
      rule: 'orgAdmin',
      async handle(ctx) {
        const page = await budgets.membersReached(ctx.access.organization.id, ctx.params.budgetId, ctx.query);
        return { members: page.items, nextCursor: page.nextCursor };
      },
    },

    createBudget: {
      rule: 'orgAdmin',
      status: 201,
      handle: async (ctx) => toBudget(await budgets.create(ctx.access.organization.id, ctx.body)),
    },

    updateBudget: {
      rule: 'orgAdmin',
      handle: async (ctx) => toBudget(await budgets.update(ctx.access.organization.id, ctx.params.budgetId, ctx.body)),
    },

    deleteBudget: {
      rule: 'orgAdmin',
      status: 204,
      async handle(ctx) {
        await budgets.delete(ctx.access.organization.id, ctx.params.budgetId);
        return undefined;
      },
    },
  } satisfies OperationModule;
}
