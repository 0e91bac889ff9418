import type { ReactNode } from 'react';
import { CenteredFrame } from './centered-frame';
import { Row, Text } from './plain/layout';

/** A page that only says something (error, forbidden, logged out…) with optional actions under it. */
export function MessagePage({
  title,
  text,
  actions,
}: {
  title: ReactNode;
  text?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <CenteredFrame title={title}>
      {text && <Text>{text}</Text>}
      {actions && <Row>{actions}</Row>}
    </CenteredFrame>
  );
}
