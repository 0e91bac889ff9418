import { withMantine } from '../../components/mantine-shell';
import { EditProfilePage } from '../../features/members/components/edit-profile-page';
import { TwoFactorSection } from '../../features/two-factor/components/two-factor-section';

/** One's own member, with the Security tab of the two-factor feature. */
function EditProfile() {
  return <EditProfilePage security={<TwoFactorSection />} />;
}

export const Component = withMantine(EditProfile);
