export { PasswordRenewPage as Component } from '../../features/auth/components/password-renew-page';
