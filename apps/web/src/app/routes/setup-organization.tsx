import { SetupOrganizationPage } from '../../features/organization-setup/components/setup-organization-page';
import { MantineShell } from '../../components/mantine-shell';
import { SignedInShell } from '../signed-in-shell';

export function Component() {
  return (
    <SignedInShell>
      <MantineShell>
        <SetupOrganizationPage />
      </MantineShell>
    </SignedInShell>
  );
}
