import { Alert, Button, Code, Group, List, NumberInput, Progress, Stack, Table, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { QueryError } from '../../../components/query-error';
import { ScrollRegion } from '../../../components/scroll-region';
import { tableWidth, WIDE_ONLY } from '../../../lib/narrow';
import { errorCode, errorMessage, type Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess, notifyWarning } from '../../../lib/notify';
import { bestInputUnit, formatCount, formatQuantity, inputUnits, toBaseUnit } from '../../../lib/units';
import { useCapacityPolicy } from '../api/get-capacity-policy';
import { useUpdateCapacityPolicy } from '../api/update-capacity-policy';
import { DIMENSIONS, type Dimension, reasonsByDimension } from '../dimensions';
import { SelectField } from '../../../components/select-field';

type Row = Schemas['CapacityDimensionRow'];

const REFUSAL_TITLES: Record<string, string> = {
  capacity_above_ceiling: 'Above the platform ceiling',
  capacity_below_floor: 'Below the floor',
  validation_failed: 'Not a valid limit',
};

function Amount({ value, dimension, none }: { value: number | null; dimension: Dimension; none: string }) {
  if (value === null)
    return (
      <Text size="sm" c="dimmed">
        {none}
      </Text>
    );
  const { quantity } = DIMENSIONS[dimension];
  const shown = formatQuantity(value, quantity);
  const exact = quantity === 'bytes' ? `${formatCount(value)} bytes` : undefined;
  return (
    <Text size="sm" title={exact}>
      {shown}
    </Text>
  );
}

/**
 * What is in use against the effective limit, as a number and a bar, for the dimensions this
 * service counts. The bar's colour repeats what the words say (near, over), so it reads without
 * it; the words keep the text colour, which has the contrast on every row of both schemes.
 */
function InUse({ row, label }: { row: Row; label: string }) {
  if (row.inUse === null)
    return (
      <Text size="xs" c="dimmed">
        not counted here
      </Text>
    );
  const limit = row.effective ?? 0;
  const share = limit > 0 ? Math.min(100, (row.inUse / limit) * 100) : 100;
  const over = row.inUse > limit;
  const state = over ? 'over the limit' : share >= 80 ? 'near the limit' : undefined;
  return (
    <Stack gap={4}>
      <Text size="sm">
        {formatCount(row.inUse)} of {formatCount(limit)}
      </Text>
      <Progress.Root size="sm">
        <Progress.Section
          value={share}
          color={over ? 'red' : state ? 'yellow' : 'blue'}
          aria-label={`${label}: ${row.inUse} in use of ${limit}${state ? `, ${state}` : ''}`}
        />
      </Progress.Root>
      {state && (
        <Text size="xs" fw={600}>
          {state}
        </Text>
      )}
    </Stack>
  );
}

/** One dimension: its numbers, and an inline editor for the organization's own limit. */
function DimensionRow({ row }: { row: Row }) {
  const { org } = useOrg();
  const info = DIMENSIONS[row.dimension];
  const units = inputUnits(info.quantity);
  const save = useUpdateCapacityPolicy();
  const clear = useUpdateCapacityPolicy();
  const [editing, setEditing] = useState(false);
  const [amount, setAmount] = useState<string | number>('');
  const [unit, setUnit] = useState(units[0]?.unit ?? '');
  const [refusal, setRefusal] = useState<unknown>(null);
  const input = useRef<HTMLInputElement>(null);
  // Keyboard users land in the editor they opened.
  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);

  const put = (mutation: typeof save, value: number | null, done: string) => {
    setRefusal(null);
    mutation.mutate(
      { params: { path: { orgSlug: org.slug } }, body: { limits: { [row.dimension]: value } } },
      {
        onSuccess: (policy) => {
          setEditing(false);
          const warning = policy.warnings.find((w) => w.dimension === row.dimension);
          if (warning) notifyWarning(`${done}. ${warning.message}`);
          else notifySuccess(done);
        },
        onError: setRefusal,
      },
    );
  };
  const startEditing = () => {
    const start = bestInputUnit(row.organizationLimit ?? row.effective ?? row.platformCeiling ?? 0, info.quantity);
    setAmount(start.amount);
    setUnit(start.unit);
    setRefusal(null);
    setEditing(true);
  };
  const submit = () => {
    if (typeof amount !== 'number') {
      setRefusal({ error: { code: 'validation_failed', message: `Enter a number for ${info.label}.` } });
      return;
    }
    const value = toBaseUnit(amount, unit, info.quantity);
    put(save, value, `${info.label}: organization limit set to ${formatQuantity(value, info.quantity)}`);
  };
  const reasons = refusal === null ? [] : (reasonsByDimension(refusal, [row.dimension]).get(row.dimension) ?? []);
  const refusalTitle = REFUSAL_TITLES[errorCode(refusal) ?? ''];
  const errorId = `capacity-error-${row.dimension}`;

  return (
    <>
      <Table.Tr data-dimension={row.dimension}>
        <Table.Td>
          <Stack gap={0}>
            <Text size="sm" fw={500}>
              {info.label}
            </Text>
            <Text size="xs" c="dimmed">
              <Code>{row.dimension}</Code> · enforced by {info.enforcedBy}
              {info.floor !== undefined && ` · floor ${formatQuantity(info.floor, info.quantity)}`}
            </Text>
          </Stack>
        </Table.Td>
        <Table.Td {...WIDE_ONLY}>
          <Amount value={row.platformCeiling} dimension={row.dimension} none="none" />
        </Table.Td>
        <Table.Td>
          {editing ? (
            <Group gap={4} wrap="nowrap">
              <NumberInput
                size="xs"
                w={110}
                min={0}
                allowNegative={false}
                aria-label={`${info.label} limit`}
                error={reasons.length > 0}
                // The red border marks the refusal; the typed number keeps the text colour (contrast).
                styles={{ input: { color: 'var(--mantine-color-text)' } }}
                aria-describedby={reasons.length > 0 ? errorId : undefined}
                value={amount}
                onChange={setAmount}
                disabled={save.isPending}
                ref={input}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') submit();
                  if (e.key === 'Escape') setEditing(false);
                }}
              />
              {units.length > 1 ? (
                <SelectField
                  size="xs"
                  w={80}
                  aria-label={`${info.label} unit`}
                  data={units.map((u) => u.unit)}
                  value={unit}
                  onChange={setUnit}
                  disabled={save.isPending}
                />
              ) : (
                <Text size="xs" c="dimmed">
                  {units[0]?.unit}
                </Text>
              )}
            </Group>
          ) : (
            <Amount value={row.organizationLimit} dimension={row.dimension} none="not set" />
          )}
        </Table.Td>
        <Table.Td {...WIDE_ONLY}>
          <Amount value={row.effective} dimension={row.dimension} none="none" />
          <Text size="xs" c="dimmed">
            {row.organizationLimit !== null && row.organizationLimit === row.effective ? 'your limit' : 'the ceiling'}
          </Text>
        </Table.Td>
        <Table.Td {...WIDE_ONLY}>
          <InUse row={row} label={info.label} />
        </Table.Td>
        <Table.Td>
          <Group gap="xs" wrap="nowrap">
            {editing ? (
              <>
                <Button size="xs" loading={save.isPending} onClick={submit} aria-label={`Save ${info.label} limit`}>
                  Save
                </Button>
                <Button size="xs" variant="default" disabled={save.isPending} onClick={() => setEditing(false)}>
                  Cancel
                </Button>
              </>
            ) : (
              <Button size="xs" variant="default" onClick={startEditing} aria-label={`Edit ${info.label} limit`}>
                Edit
              </Button>
            )}
            <Button
              size="xs"
              variant="light"
              color="gray"
              loading={clear.isPending}
              disabled={row.organizationLimit === null || save.isPending}
              title={row.organizationLimit === null ? 'No organization limit to clear' : undefined}
              aria-label={`Clear ${info.label} limit`}
              onClick={() =>
                put(clear, null, `${info.label}: organization limit cleared; the platform ceiling applies`)
              }
            >
              Clear
            </Button>
          </Group>
        </Table.Td>
      </Table.Tr>
      {refusal !== null && (
        <Table.Tr>
          <Table.Td colSpan={6}>
            <Alert
              id={errorId}
              color="red"
              role="alert"
              title={`${info.label}: ${refusalTitle ?? 'Not saved'}`}
              withCloseButton
              closeButtonLabel={`Dismiss the ${info.label} error`}
              onClose={() => setRefusal(null)}
            >
              {reasons.length > 0 ? `${reasons.join('; ')}.` : errorMessage(refusal)}
              {refusalTitle !== undefined && ' Nothing was changed.'}
            </Alert>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

/**
 * All 23 dimensions: the operator's ceiling, the organization's limit (editable, clearable), the
 * effective one, and what is in use of the dimensions this service counts.
 */
export function CapacityTable() {
  const { org } = useOrg();
  const policy = useCapacityPolicy(org.slug);
  if (policy.isError) return <QueryError error={policy.error} />;
  return (
    <Stack>
      <Alert color="blue" variant="light" title="The platform ceiling is the operator's">
        The platform operator sets each dimension's ceiling (<Code>HUB_CEILING_&lt;DIMENSION&gt;</Code>); only they can
        raise it. Your organization may set a lower limit of its own. The effective limit is the lower of the two, and
        the ceiling when you set none. Sizes are in binary units (1 KiB = 1024 bytes).
      </Alert>
      {policy.data && policy.data.warnings.length > 0 && (
        <Alert color="orange" title="Used beyond the limit">
          <List size="sm">
            {policy.data.warnings.map((w) => (
              <List.Item key={w.dimension}>{w.message}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {policy.isPending ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : (
        <ScrollRegion label="Capacity limits">
          <Table striped miw={tableWidth(1000)} aria-label="Capacity limits" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Dimension</Table.Th>
                <Table.Th w={130} {...WIDE_ONLY}>
                  Platform ceiling
                </Table.Th>
                <Table.Th w={{ sm: 220 }}>Organization limit</Table.Th>
                <Table.Th w={130} {...WIDE_ONLY}>
                  Effective
                </Table.Th>
                <Table.Th w={140} {...WIDE_ONLY}>
                  In use
                </Table.Th>
                <Table.Th w={{ sm: 170 }}>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {policy.data.dimensions.map((row) => (
                <DimensionRow key={row.dimension} row={row} />
              ))}
            </Table.Tbody>
          </Table>
        </ScrollRegion>
      )}
    </Stack>
  );
}
