import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { showToast } from '../../../lib/toasts';
import { assignableRoles, type Member, type RoleId, type UpdateMemberRequest } from '@portal/contracts';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from '../../../lib/i18n';
import { StatusAlert } from '../../../components/status-alert';
import { useSignedInAccount } from '../../../lib/account';
import { fieldError } from '../../../lib/form-errors';
import { useUpdateMember } from '../api/update-member';
import { MemberProfileFormSchema, type MemberProfileForm } from '../member-forms';
import { accessFormValuesOf, applicationScopesFor } from '../../../lib/application-access';
import { memberChangeErrorText } from '../member-rules';
import { RoleAndAccessFields } from './role-and-access-fields';
import { useConfirmedChange } from './use-confirmed-change';

function formValues(member: Member): MemberProfileForm {
  return {
    displayName: member.displayName,
    ...accessFormValuesOf(member.roles[0]?.id ?? '', member.applicationScopes),
  };
}

/** §2 profile tab of /manage-members/:memberId and /edit-profile; one's own role is locked. */
export function MemberProfileForm({ member }: { member: Member }) {
  const { t } = useTranslation();
  const account = useSignedInAccount();
  const self = member.id === account.memberId;
  const update = useUpdateMember(member.id);
  const form = useForm({
    resolver: zodResolver(MemberProfileFormSchema),
    defaultValues: formValues(member),
    mode: 'onTouched',
  });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = form;
  const confirmation = useConfirmedChange({
    mutation: update,
    variables: (request: UpdateMemberRequest) => request,
    title: t('members.profile.confirmTitle'),
    question: () =>
      self
        ? t('members.profile.confirmSelf')
        : t('members.profile.confirmMember', { name: member.displayName }),
    onSuccess: (saved) => {
      showToast({ color: 'green', message: t('members.profile.saved') });
      reset(formValues(saved));
    },
  });

  const currentRoles = member.roles.map((role) => role.id);
  // The member's current role stays listed so the select can show it even if the viewer may not grant it.
  const offeredRoles: RoleId[] = self
    ? currentRoles
    : [...new Set([...currentRoles, ...assignableRoles(account.roles.map((role) => role.id))])];

  const onSubmit = handleSubmit(({ displayName, roleId: chosenRole, access, applicationIds }) => {
    update.reset();
    // Editing oneself changes the display name only (§5).
    confirmation.ask(
      self
        ? { displayName }
        : {
            displayName,
            roleIds: [chosenRole],
            applicationScopes: applicationScopesFor(chosenRole, access, applicationIds),
          },
    );
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md" maw={560}>
          <StatusAlert kind="fail" message={update.isError ? memberChangeErrorText(update.error) : null} />
          <TextInput
            label={t('members.field.displayName')}
            required
            {...register('displayName')}
            error={fieldError(errors.displayName)}
          />
          <TextInput label={t('members.field.email')} value={member.email} readOnly variant="filled" />
          <RoleAndAccessFields
            roleIds={offeredRoles}
            locked={self}
            currentScopes={member.applicationScopes ?? undefined}
          />
          <Group>
            <Button type="submit" disabled={!isDirty}>
              {t('members.profile.save')}
            </Button>
          </Group>
        </Stack>
        {confirmation.dialog}
      </form>
    </FormProvider>
  );
}
