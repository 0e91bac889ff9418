import { InvitationSignupPage } from '../../features/members/components/invitation-signup-page';
import { MantineShell } from '../../components/mantine-shell';
import { SignedInShell } from '../signed-in-shell';

export function Component() {
  return (
    <SignedInShell>
      <MantineShell>
        <InvitationSignupPage />
      </MantineShell>
    </SignedInShell>
  );
}
