import { CenteredFrame } from '../../../components/centered-frame';
import { TextLink } from '../../../components/plain/buttons';
import { StatusAlert } from '../../../components/status-alert';
import type { TranslationKey } from '../../../lib/i18n';

/** A mailed link that arrived without what it needs: what is wrong, and where to go instead. */
export function LinkProblem({
  title,
  message,
  to,
  linkLabel,
}: {
  title: string;
  message: TranslationKey;
  to: string;
  linkLabel: string;
}) {
  return (
    <CenteredFrame title={title}>
      <StatusAlert kind="fail" message={message} />
      <TextLink to={to} small>
        {linkLabel}
      </TextLink>
    </CenteredFrame>
  );
}
