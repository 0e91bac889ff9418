import { SetupOrganizationPage } from '../../features/organization-setup/components/setup-organization-page';
import { MantineShell } from '../mantine-shell';

export function Component() {
  return (
    <MantineShell>
      <SetupOrganizationPage />
    </MantineShell>
  );
}
