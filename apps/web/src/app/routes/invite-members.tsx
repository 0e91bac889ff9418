import { withMantine } from '../../components/mantine-shell';
import { InviteMembersPage } from '../../features/members/components/invite-members-page';

export const Component = withMantine(InviteMembersPage);
