export { EditMemberPage as Component } from '../../features/members/components/edit-member-page';
