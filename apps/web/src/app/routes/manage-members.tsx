import { withMantine } from '../../components/mantine-shell';
import { ManageMembersPage } from '../../features/members/components/manage-members-page';
import { RequireTwoFactorSwitch } from '../../features/two-factor/components/require-two-factor-switch';

/** The members, with the super-admin's organisation-wide two-factor requirement above them. */
function ManageMembers() {
  return <ManageMembersPage settings={<RequireTwoFactorSwitch />} />;
}

export const Component = withMantine(ManageMembers);
