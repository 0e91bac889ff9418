export { TwoFactorPage as Component } from '../../features/auth/components/two-factor-page';
