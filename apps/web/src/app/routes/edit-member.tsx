import { withMantine } from '../../components/mantine-shell';
import { EditMemberPage } from '../../features/members/components/edit-member-page';

export const Component = withMantine(EditMemberPage);
