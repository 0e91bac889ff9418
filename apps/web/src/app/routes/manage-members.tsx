export { ManageMembersPage as Component } from '../../features/members/components/manage-members-page';
