export { PasswordResetPage as Component } from '../../features/auth/components/password-reset-page';
