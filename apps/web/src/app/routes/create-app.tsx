import { withMantine } from '../../components/mantine-shell';
import { CreateAppPage } from '../../features/create-app/components/create-app-page';

export const Component = withMantine(CreateAppPage);
