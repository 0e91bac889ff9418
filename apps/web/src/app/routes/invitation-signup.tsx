import { InvitationSignupPage } from '../../features/members/components/invitation-signup-page';
import { MantineShell } from '../mantine-shell';

export function Component() {
  return (
    <MantineShell>
      <InvitationSignupPage />
    </MantineShell>
  );
}
