import { queryOptions } from '@tanstack/react-query';
import { SESSION_INDEPENDENT } from '../../../lib/query-client';

export const LEGAL_DOCUMENTS = {
  privacyPolicy: '/privacy_policy.md',
  terms: '/terms_and_conditions.md',
} as const;

const UNAVAILABLE = '# Could not load document.';

/** The markdown text, or a heading saying it could not be loaded (§7); never an error. */
async function getLegalDocument(path: string): Promise<string> {
  try {
    const response = await fetch(path);
    // A server that does not have the file may answer with the SPA's index.html instead of a 404.
    const isHtml = response.headers.get('content-type')?.includes('text/html') ?? false;
    return response.ok && !isHtml ? await response.text() : UNAVAILABLE;
  } catch {
    return UNAVAILABLE;
  }
}

export const legalDocumentQueryOptions = (path: string) =>
  queryOptions({
    queryKey: ['legal-document', path],
    queryFn: () => getLegalDocument(path),
    staleTime: Infinity,
    meta: SESSION_INDEPENDENT,
  });
