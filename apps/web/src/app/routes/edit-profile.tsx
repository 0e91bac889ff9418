export { EditProfilePage as Component } from '../../features/members/components/edit-profile-page';
