import { Text } from '@mantine/core';
import type { Schemas } from '../../../lib/api-client';

/** The teams an invitation joins, by name, or that it joins none. */
export function TeamsGiven({ teams }: { teams: Schemas['InvitedTeam'][] }) {
  return (
    <Text size="sm">
      {teams.length === 0 ? 'No team comes with it.' : `Teams: ${teams.map((team) => team.name).join(', ')}.`}
    </Text>
  );
}
