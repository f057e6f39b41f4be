import { Alert, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import { errorMessage } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useCreateBudget, useUpdateBudget } from '../api/budgets';
import type { Budget } from './budget-model';
import {
  BudgetFields,
  type BudgetFormValues,
  budgetBody,
  budgetValidation,
  initialBudgetValues,
} from './budget-fields';

/** Adds a budget; the list below shows it with this period's spend at once. */
export function CreateBudgetForm() {
  const { org } = useOrg();
  const create = useCreateBudget();
  const form = useForm<BudgetFormValues>({ initialValues: initialBudgetValues(), validate: budgetValidation });
  const submit = form.onSubmit((values) =>
    create.mutate(
      { params: { path: { orgSlug: org.slug } }, body: budgetBody(values) },
      {
        onSuccess: (budget) => {
          notifySuccess(`Budget ${budget.name} added`);
          form.reset();
        },
      },
    ),
  );
  return (
    <Paper withBorder p="md" mb="md" component="form" onSubmit={submit} aria-labelledby="create-budget-title">
      <Title order={2} size="h4" id="create-budget-title" mb="xs">
        Add a budget
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Runs with an unknown cost count nothing toward a cost budget; the list says how many there were.
      </Text>
      <Stack gap="sm">
        <BudgetFields form={form} />
        <Group>
          <Button type="submit" loading={create.isPending}>
            Add budget
          </Button>
        </Group>
        {create.isError && (
          <Alert color="red" title="The budget was not added" role="alert">
            {errorMessage(create.error)}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** Changes a budget. A new scope, metric, amount or period starts its announcements afresh. */
export function EditBudgetDialog({ budget, onClose }: { budget: Budget; onClose: () => void }) {
  const { org } = useOrg();
  const update = useUpdateBudget();
  const { pending, error, run } = useDialogAction(true, onClose);
  const form = useForm<BudgetFormValues>({ initialValues: initialBudgetValues(budget), validate: budgetValidation });
  const submit = form.onSubmit((values) =>
    run(async () => {
      await update.mutateAsync({
        params: { path: { orgSlug: org.slug, budgetId: budget.id } },
        body: budgetBody(values),
      });
      notifySuccess(`Budget ${values.name.trim()} saved`);
    }),
  );
  return (
    <Modal opened onClose={onClose} title={`Edit ${budget.name}`} centered size="lg">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <BudgetFields form={form} />
          <DialogFooter
            label="Save"
            pending={pending}
            error={error}
            errorTitle="The budget was not saved"
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
