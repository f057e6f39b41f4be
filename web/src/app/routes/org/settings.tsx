import type { LoaderFunctionArgs } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { getMeQueryOptions } from '../../../lib/queries/get-me';
import { getSettingsQueryOptions } from '../../../lib/queries/get-settings';
import { getOrganizationQueryOptions } from '../../../features/settings/api/get-organization';
import { OrganizationCard } from '../../../features/settings/components/organization-card';
import { getDomainsQueryOptions } from '../../../features/settings/api/domains';
import { getOrgIdentityProvidersQueryOptions } from '../../../features/settings/api/identity-providers';
import { SignInSection } from '../../../features/settings/components/sign-in-section';
import { DomainsSection } from '../../../features/settings/components/domains-section';
import { AutoJoinForm } from '../../../features/settings/components/auto-join-form';
import { SettingsForm } from '../../../features/settings/components/settings-form';
import { LifecycleSection } from '../../../features/lifecycle/components/lifecycle-section';
import { TokenPolicyForm } from '../../../features/settings/components/token-policy-form';
import { requireOrgAdmin } from '../../../lib/authorization';
import { queryClient } from '../../../lib/query-client';

export async function loader({ params }: LoaderFunctionArgs) {
  const orgSlug = params.orgSlug!;
  requireOrgAdmin(await queryClient.ensureQueryData(getMeQueryOptions()), orgSlug);
  await Promise.all([
    queryClient.prefetchQuery(getSettingsQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getOrganizationQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getDomainsQueryOptions(orgSlug)),
    queryClient.prefetchQuery(getOrgIdentityProvidersQueryOptions(orgSlug)),
  ]);
  return null;
}

export function Component() {
  return (
    <>
      <PageHeader title="Settings" />
      <OrganizationCard />
      <LifecycleSection />
      <SettingsForm />
      <SignInSection />
      <DomainsSection />
      <AutoJoinForm />
      <TokenPolicyForm />
    </>
  );
}
