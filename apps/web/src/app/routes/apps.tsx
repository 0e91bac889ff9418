export { ApplicationsPage as Component } from '../../features/applications/components/applications-page';
