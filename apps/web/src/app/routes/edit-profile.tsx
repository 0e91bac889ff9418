import { withMantine } from '../../components/mantine-shell';
import { EditProfilePage } from '../../features/members/components/edit-profile-page';

export const Component = withMantine(EditProfilePage);
