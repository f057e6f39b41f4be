import { formatDateTime } from '../../../lib/format';
import { Badge, Code, Text } from '@mantine/core';
import { DialogFooter, useDialogAction } from '../../../components/dialog-action';
import type { Schemas } from '../../../lib/api-client';

// Filled badges in dark shades: their small bold text stays above 4.5:1 in both themes.
const STATUS_COLORS: Record<Schemas['ConnectionStatus'], { bg: string; text: string }> = {
  ACTIVE: { bg: 'teal.9', text: 'white' },
  DISABLED: { bg: 'gray.7', text: 'white' },
  DRAFT: { bg: 'yellow.3', text: 'black' },
};

export function StatusBadge({ status }: { status: Schemas['ConnectionStatus'] }) {
  return (
    <Badge
      color={STATUS_COLORS[status].bg}
      c={STATUS_COLORS[status].text}
      variant="filled"
      // A badge may shrink to an ellipsis in a squeezed table cell: the status is always shown whole.
      style={{ minWidth: 'max-content' }}
    >
      {status}
    </Badge>
  );
}

export function VersionText({ version }: { version: number | null }) {
  return <Text size="sm">{version === null ? 'none' : `v${version}`}</Text>;
}

/** The master key's name (not a secret): which key opens the active version. */
export function KeyIdText({ keyId }: { keyId: string | null }) {
  return keyId === null ? (
    <Text size="sm" c="dimmed">
      none
    </Text>
  ) : (
    <Code style={{ whiteSpace: 'nowrap' }}>{keyId}</Code>
  );
}

export const formatDate = (iso: string) => formatDateTime(iso);

/** Password fields are filled by the person only; no browser autofill, no saved passwords. */
export const SECRET_INPUT = { autoComplete: 'off', 'data-1p-ignore': true, 'data-lpignore': 'true' } as const;

/**
 * The submit of a dialog that sends secrets: pending while it runs, closed on success, the server's
 * message kept on failure. Either way the secret fields are emptied and the mutation (which holds
 * the request) is reset, so no secret stays in the form, the DOM or the mutation cache.
 */
export function useSecretSubmit(opened: boolean, onClose: () => void) {
  const { pending, error, run } = useDialogAction(opened, onClose);
  const submit = (send: () => Promise<unknown>, forget: () => void) =>
    run(async () => {
      try {
        await send();
      } finally {
        forget();
      }
    });
  return { pending, error, submit };
}

function SecretsNote({ failed }: { failed: boolean }) {
  return (
    <Text size="xs" c="dimmed">
      {failed
        ? 'Nothing was saved, and the secret fields were emptied: type the secrets again to retry.'
        : 'Secrets are sealed on the server and never shown again, here or anywhere else.'}
    </Text>
  );
}

/** The end of a dialog that sends secrets: what happens to them, then the server's error, Cancel and the action. */
export function SecretsFooter({
  label,
  pending,
  error,
  onCancel,
}: {
  label: string;
  pending: boolean;
  error: unknown;
  onCancel: () => void;
}) {
  return (
    <>
      <SecretsNote failed={error !== null} />
      <DialogFooter label={label} pending={pending} error={error} errorTitle="Not saved" onCancel={onCancel} />
    </>
  );
}
