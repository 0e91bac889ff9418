export { InvitationSignupPage as Component } from '../../features/members/components/invitation-signup-page';
