// Replaced by the screen of this route.
import { PageHeader } from '../../../components/page-header';

export function Component() {
  return <PageHeader title="Usage" />;
}
