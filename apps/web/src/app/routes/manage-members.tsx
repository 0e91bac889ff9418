import { withMantine } from '../../components/mantine-shell';
import { ManageMembersPage } from '../../features/members/components/manage-members-page';

export const Component = withMantine(ManageMembersPage);
