import { withMantine } from '../../components/mantine-shell';
import { AuditLogPage } from '../../features/audit-log/components/audit-log-page';
import { useMembers } from '../../features/members/api/list-members';
import { useSignedInAccount } from '../../lib/account';
import { addMessages } from '../../lib/i18n';
import { enAuditLog } from '../../locales/en-audit-log';

addMessages(enAuditLog);

const NO_MEMBERS: never[] = [];

/** The audit log, whose actor filter offers the organisation's members (the members feature's list). */
function AuditLog() {
  const account = useSignedInAccount();
  const members = useMembers(account.memberLimit);
  return <AuditLogPage members={members.data?.results ?? NO_MEMBERS} />;
}

export const Component = withMantine(AuditLog);
