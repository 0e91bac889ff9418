export { SetupOrganizationPage as Component } from '../../features/organization-setup/components/setup-organization-page';
