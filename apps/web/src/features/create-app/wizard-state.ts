import { ApplicationSchema, type Application } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router';
import { z } from 'zod';
import { applicationQueryOptions } from '../../api/applications/get-application';
import { PRODUCT_TYPES, type ProductType } from './code-samples';

/** What one step hands the next in navigation state (§4 create flow). */
export interface WizardState {
  application: Application;
  productType?: ProductType;
}

const WizardStateSchema = z.object({ application: ApplicationSchema, productType: z.enum(PRODUCT_TYPES).optional() });

/**
 * The application the wizard is setting up: from navigation state, or after a reload (which
 * loses that state) fetched again by the ?applicationId= the create step put in the query.
 */
export function useWizardApplication() {
  const location = useLocation();
  const [search] = useSearchParams();
  const fromState = WizardStateSchema.safeParse(location.state);
  const applicationId = search.get('applicationId') ?? '';
  const fetched = useQuery({ ...applicationQueryOptions(applicationId), enabled: !fromState.success && applicationId !== '' });
  if (fromState.success) return { status: 'ready', ...fromState.data } as const;
  if (fetched.data) return { status: 'ready', application: fetched.data, productType: undefined } as const;
  if (fetched.isError || applicationId === '') return { status: 'missing' } as const;
  return { status: 'loading' } as const;
}
