import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { IpType } from '@contracts/reputation';
import { AssociatedDomainsField } from './associated-domains-field';
import { IpTypeField } from './ip-type-field';

/** The part of both Add IP forms' values these fields edit. */
type SharingValues = { type?: IpType; associatedDomains?: string[] };

/**
 * Dedicated or shared, and the domains a shared IP sends for: the same two fields on both Add IP
 * tabs, which differ only in the type they start with (part 2, section 5).
 */
export function IpSharingFields({ idPrefix, defaultType }: { idPrefix: string; defaultType: IpType }) {
  const { control } = useFormContext<SharingValues>();
  const shared = useWatch({ control, name: 'type' }) === 'shared';
  return (
    <>
      <Controller
        control={control}
        name="type"
        render={({ field }) => (
          <IpTypeField name={`${idPrefix}-type`} value={field.value ?? defaultType} onChange={field.onChange} />
        )}
      />
      <Controller
        control={control}
        name="associatedDomains"
        render={({ field }) => (
          <AssociatedDomainsField
            idPrefix={idPrefix}
            enabled={shared}
            selected={field.value ?? []}
            onChange={field.onChange}
          />
        )}
      />
    </>
  );
}
