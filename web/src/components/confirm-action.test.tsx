import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { $api } from '../lib/api-client';
import { errorBody, ORG_SLUG, renderInOrg } from '../test/render';
import { gate, server } from '../test/server';
import { ConfirmAction } from './confirm-action';

const REVOKE_PATH = `/api/org/${ORG_SLUG}/members/u-mel/revoke`;

/** A confirmed action as the screens write one: the dialog runs a mutation of the app's client. */
function RevokeMel() {
  const revoke = $api.useMutation('post', '/api/org/{orgSlug}/members/{userId}/revoke');
  return (
    <ConfirmAction
      label="Revoke"
      ariaLabel="Revoke Mel Member"
      title="Revoke Mel Member?"
      message="Mel Member loses access to Acme now."
      confirmLabel="Revoke membership"
      onConfirm={() => revoke.mutateAsync({ params: { path: { orgSlug: ORG_SLUG, userId: 'u-mel' } } })}
    />
  );
}

/** Answers the revoke with `answer`, counting the requests. */
function revokeServer(answer: () => Promise<Response> | Response) {
  const calls = { count: 0 };
  server.use(
    http.post(REVOKE_PATH, () => {
      calls.count += 1;
      return answer();
    }),
  );
  return calls;
}

const revoked = () => HttpResponse.json({ revoked: true, userId: 'u-mel' });
const dialog = () => screen.queryByRole('dialog', { name: 'Revoke Mel Member?' });
const confirmButton = () => within(dialog()!).getByRole('button', { name: 'Revoke membership' });

describe('ConfirmAction (useDialogAction)', () => {
  it('shows the action in flight, then closes the dialog when it succeeds', async () => {
    const slow = gate();
    const calls = revokeServer(async () => {
      await slow.opened;
      return revoked();
    });
    const { user } = renderInOrg(<RevokeMel />);

    await user.click(screen.getByRole('button', { name: 'Revoke Mel Member' }));
    expect(dialog()).toHaveTextContent('Mel Member loses access to Acme now.');
    await user.click(confirmButton());

    await waitFor(() => expect(confirmButton()).toHaveAttribute('data-loading'));
    expect(confirmButton()).toBeDisabled();
    await user.click(confirmButton());
    expect(calls.count).toBe(1);

    slow.open();
    await waitFor(() => expect(dialog()).not.toBeInTheDocument());
    expect(calls.count).toBe(1);
  });

  it('keeps the dialog open with the server’s message when the action fails, and a retry can succeed', async () => {
    let refuse = true;
    const calls = revokeServer(() =>
      refuse
        ? HttpResponse.json(errorBody('owner_required', 'Only an OWNER can revoke this member.'), { status: 403 })
        : revoked(),
    );
    const { user } = renderInOrg(<RevokeMel />);

    await user.click(screen.getByRole('button', { name: 'Revoke Mel Member' }));
    await user.click(confirmButton());

    const alert = await within(dialog()!).findByRole('alert');
    expect(alert).toHaveTextContent('Not done');
    expect(alert).toHaveTextContent('Only an OWNER can revoke this member.');
    expect(confirmButton()).toBeEnabled();
    expect(confirmButton()).not.toHaveAttribute('data-loading');

    refuse = false;
    await user.click(confirmButton());
    await waitFor(() => expect(dialog()).not.toBeInTheDocument());
    expect(calls.count).toBe(2);
  });

  it('says when the server could not be reached, and starts clean when opened again', async () => {
    revokeServer(() => HttpResponse.error());
    const { user } = renderInOrg(<RevokeMel />);

    await user.click(screen.getByRole('button', { name: 'Revoke Mel Member' }));
    await user.click(confirmButton());
    expect(await within(dialog()!).findByRole('alert')).toHaveTextContent('Failed to fetch');

    await user.click(within(dialog()!).getByRole('button', { name: 'Cancel' }));
    expect(dialog()).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke Mel Member' }));
    expect(dialog()).toBeInTheDocument();
    expect(within(dialog()!).queryByRole('alert')).not.toBeInTheDocument();
  });
});
