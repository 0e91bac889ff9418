import { createRoot } from 'react-dom/client';
import { Alert, Anchor, Button, MantineProvider, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
createRoot(document.getElementById('root')!).render(<MantineProvider><Stack><Title>x</Title><Alert color="red">x</Alert><TextInput label="e" /><PasswordInput label="p" /><Anchor href="/">x</Anchor><Button>go</Button></Stack></MantineProvider>);
