import { Alert, Button, Text, Title, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { wizardErrorMessage } from '../error-message';

/** The title and lead text each step opens with. */
export function StepHeading({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <Title order={2} size="h4">
        {title}
      </Title>
      <Text c="dimmed" size="sm">
        {text}
      </Text>
    </div>
  );
}

/** A button to a help or console page, opened in a new tab so the wizard keeps its place. */
export function ExternalLinkButton({ href, children, ...props }: ButtonProps & { href: string; children: ReactNode }) {
  return (
    <Button component="a" href={href} target="_blank" rel="noopener noreferrer" {...props}>
      {children}
    </Button>
  );
}

/** A failed wizard call, in words (nothing while `error` is null). */
export function StepError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert">
      {wizardErrorMessage(error)}
    </Alert>
  );
}
