import { MantineShell } from '../../components/mantine-shell';
import { TwoFactorSetupPage } from '../../features/two-factor/components/two-factor-setup-page';
import { SignedInShell } from '../signed-in-shell';

/** Enrolment the organisation requires stands outside the navigation layout, like the organisation setup. */
export function Component() {
  return (
    <SignedInShell>
      <MantineShell>
        <TwoFactorSetupPage />
      </MantineShell>
    </SignedInShell>
  );
}
