import { NumberInput, SimpleGrid, Switch, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMemo } from 'react';
import type { Schemas } from '../../../lib/api-client';
import { SelectField } from '../../../components/select-field';
import { useOrg } from '../../../lib/authorization';
import { folderPath } from '../../../lib/folder-tree';
import { useExplorer } from '../../../lib/queries/get-explorer';
import { useMembers } from '../../../lib/queries/get-members';
import { useServiceAccounts } from '../../../lib/queries/get-service-accounts';
import { useTeams } from '../../../lib/queries/get-teams';
import { buildProjectTree } from '../../../lib/project-tree';
import { useTokens } from '../../../lib/queries/get-api-tokens';
import { type Budget, DEFAULT_THRESHOLDS, PERIOD_LABELS, parseThresholds } from './budget-model';

export type BudgetFormValues = {
  name: string;
  scopeType: Schemas['BudgetScope']['type'];
  scopeId: string;
  perMember: boolean;
  metric: Schemas['BudgetMetric'];
  amount: number | string;
  period: Schemas['BudgetPeriod'];
  thresholds: string;
  enforcement: Schemas['BudgetEnforcement'];
};

export const initialBudgetValues = (budget?: Budget): BudgetFormValues => ({
  name: budget?.name ?? '',
  scopeType: budget?.scope.type ?? 'organization',
  scopeId: budget?.scope.id ?? '',
  perMember: budget?.perMember ?? false,
  metric: budget?.metric ?? 'costUsd',
  amount: budget?.amount ?? '',
  period: budget?.period ?? 'month',
  thresholds: (budget?.thresholds ?? DEFAULT_THRESHOLDS).join(', '),
  enforcement: budget?.enforcement ?? 'alert',
});

/** What the browser can tell before sending; the server decides the rest and says why. */
export const budgetValidation = {
  name: (v: string) => (v.trim() ? null : 'Give the budget a name'),
  scopeId: (v: string, values: BudgetFormValues) =>
    values.scopeType !== 'organization' && !v ? `Choose the ${values.scopeType}` : null,
  amount: (v: number | string) => (typeof v === 'number' && v > 0 ? null : 'Enter an amount above zero'),
  thresholds: (v: string) => (parseThresholds(v) ? null : 'Whole percentages, separated by commas'),
};

/** The request body of the form's values (validated first). */
export const budgetBody = (values: BudgetFormValues) => ({
  name: values.name.trim(),
  scope:
    values.scopeType === 'organization' ? { type: values.scopeType } : { type: values.scopeType, id: values.scopeId },
  perMember: values.perMember && PER_MEMBER_SCOPES.has(values.scopeType),
  metric: values.metric,
  amount: Number(values.amount),
  period: values.period,
  thresholds: parseThresholds(values.thresholds) ?? DEFAULT_THRESHOLDS,
  enforcement: values.enforcement,
});

const ENFORCEMENT_CHOICES = [
  { value: 'alert' as const, label: 'Alert only' },
  { value: 'block' as const, label: 'Block new runs' },
];

/** What a budget may cover, and what its second field is called (none for the organization). */
const SCOPES: { value: BudgetFormValues['scopeType']; label: string; target?: string }[] = [
  { value: 'organization', label: 'The whole organization' },
  { value: 'folder', label: 'A folder and everything under it', target: 'Folder' },
  { value: 'project', label: 'One project', target: 'Project' },
  { value: 'team', label: 'A team (its members’ runs while in it)', target: 'Team' },
  { value: 'member', label: 'One member (their runs and their tokens’)', target: 'Member' },
  { value: 'apiToken', label: 'One API token (the runs started through it)', target: 'API token' },
  {
    value: 'serviceAccount',
    label: 'One service account (its runs and its tokens’)',
    target: 'Service account',
  },
];

/** The scopes whose members may each get the amount as their own allowance. */
export const PER_MEMBER_SCOPES: ReadonlySet<BudgetFormValues['scopeType']> = new Set([
  'organization',
  'folder',
  'team',
]);

/**
 * Name, scope (the organization, a folder and its subtree, a project, a team, a member, an API
 * token or a service account), whether each member gets the amount (organization, folder, team),
 * metric, amount, period, thresholds.
 */
export function BudgetFields({ form }: { form: UseFormReturnType<BudgetFormValues> }) {
  const { org } = useOrg();
  const explorer = useExplorer(org.slug);
  const teams = useTeams(org.slug);
  const members = useMembers(org.slug);
  const { values } = form;
  const tokens = useTokens(org.slug);
  const accounts = useServiceAccounts(org.slug, values.scopeType === 'serviceAccount');
  const scope = SCOPES.find((s) => s.value === values.scopeType);
  const pendingOf: Partial<Record<BudgetFormValues['scopeType'], boolean>> = {
    team: teams.isPending,
    member: members.isPending,
    apiToken: tokens.isPending,
    serviceAccount: accounts.isPending,
  };
  const pending = pendingOf[values.scopeType] ?? explorer.isPending;
  const targets = useMemo(() => {
    const tree = buildProjectTree(explorer.data);
    const list =
      values.scopeType === 'folder'
        ? [...tree.folders.values()].map((f) => ({ value: f.id, label: folderPath(tree, f.id) }))
        : values.scopeType === 'team'
          ? (teams.data?.teams ?? []).map((t) => ({ value: t.id, label: t.name }))
          : values.scopeType === 'member'
            ? (members.data?.members ?? []).map((m) => ({ value: m.userId, label: `${m.displayName} (${m.imOpenId})` }))
            : values.scopeType === 'apiToken'
              ? (tokens.data?.tokens ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.owner.displayName})` }))
              : values.scopeType === 'serviceAccount'
                ? (accounts.data?.serviceAccounts ?? []).map((a) => ({ value: a.id, label: a.name }))
                : (explorer.data?.projects ?? []).map((p) => ({
                    value: p.id,
                    label: `${p.name} (${folderPath(tree, p.folderId)})`,
                  }));
    return list.sort((a, b) => a.label.localeCompare(b.label, 'en'));
  }, [explorer.data, teams.data, members.data, tokens.data, accounts.data, values.scopeType]);
  return (
    <>
      <TextInput label="Name" placeholder="Platform team, monthly" {...form.getInputProps('name')} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <SelectField
          label="Covers"
          data={SCOPES.map(({ value, label }) => ({ value, label }))}
          {...form.getInputProps('scopeType')}
          onChange={(scopeType) => {
            form.setFieldValue('scopeType', scopeType);
            form.setFieldValue('scopeId', '');
            if (!PER_MEMBER_SCOPES.has(scopeType)) form.setFieldValue('perMember', false);
          }}
        />
        {scope?.target && (
          <SelectField
            label={scope.target}
            placeholder={pending ? 'Loading…' : `Choose a ${scope.target.toLowerCase()}`}
            searchable
            data={targets}
            {...form.getInputProps('scopeId')}
          />
        )}
        {PER_MEMBER_SCOPES.has(values.scopeType) && (
          <Switch
            label="Each member gets this amount"
            description="Every member’s own spend counts against it, instead of one shared pool."
            {...form.getInputProps('perMember', { type: 'checkbox' })}
          />
        )}
        <SelectField
          label="Measures"
          data={[
            { value: 'costUsd', label: 'Cost (USD)' },
            { value: 'tokens', label: 'Tokens (input and output)' },
          ]}
          {...form.getInputProps('metric')}
        />
        <NumberInput
          label={values.metric === 'costUsd' ? 'Amount (USD)' : 'Amount (tokens)'}
          min={0}
          allowNegative={false}
          decimalScale={values.metric === 'costUsd' ? 2 : 0}
          thousandSeparator=","
          {...form.getInputProps('amount')}
        />
        <SelectField
          label="Period (UTC)"
          data={Object.entries(PERIOD_LABELS).map(([value, label]) => ({ value, label }))}
          {...form.getInputProps('period')}
        />
        <TextInput
          label="Alert at (% of the amount)"
          description="Each is announced once a period, as an audit event and to webhooks."
          {...form.getInputProps('thresholds')}
        />
        <SelectField
          label="At the amount"
          description="Block: admission refuses the runs it covers until the period ends."
          data={ENFORCEMENT_CHOICES}
          {...form.getInputProps('enforcement')}
        />
      </SimpleGrid>
    </>
  );
}
