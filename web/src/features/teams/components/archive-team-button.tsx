import { ConfirmAction } from '../../../components/confirm-action';
import type { Schemas } from '../../../lib/api-client';
import { useOrg } from '../../../lib/authorization';
import { notifySuccess } from '../../../lib/notify';
import { useArchiveTeam } from '../api/archive-team';

export function ArchiveTeamButton({ team, onArchived }: { team: Schemas['TeamRow']; onArchived?: () => void }) {
  const { org } = useOrg();
  const archive = useArchiveTeam();
  return (
    <ConfirmAction
      label="Archive"
      ariaLabel={`Archive ${team.name}`}
      title={`Archive team ${team.name}?`}
      message={`The team's ${team.memberCount} member(s) lose every project access granted through it, now.`}
      confirmLabel="Archive team"
      onConfirm={() =>
        archive.mutateAsync({ params: { path: { orgSlug: org.slug, teamId: team.id } } }).then(() => {
          notifySuccess(`Archived team ${team.name}`);
          onArchived?.();
        })
      }
    />
  );
}
