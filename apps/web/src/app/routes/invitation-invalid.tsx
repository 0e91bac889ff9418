import { InvitationLinkPage } from '../../features/members/components/invitation-link-page';

export function Component() {
  return <InvitationLinkPage problem="invalid" />;
}
