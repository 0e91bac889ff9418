export { ConfirmUserPage as Component } from '../../features/auth/components/confirm-user-page';
