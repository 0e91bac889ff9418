export { InviteMembersPage as Component } from '../../features/members/components/invite-members-page';
