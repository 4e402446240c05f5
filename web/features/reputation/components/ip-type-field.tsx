import type { IpType } from '@contracts/reputation';

/** Dedicated or shared, as two radio buttons (the default differs per tab: part 2, section 5). */
export function IpTypeField({
  name,
  value,
  onChange,
}: {
  name: string;
  value: IpType;
  onChange: (type: IpType) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">Type</legend>
      <div className="flex flex-wrap gap-4">
        {(['dedicated', 'shared'] as const).map((type) => (
          <label key={type} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              className="size-4"
              name={name}
              value={type}
              checked={value === type}
              onChange={() => onChange(type)}
            />
            {type === 'dedicated' ? 'Dedicated' : 'Shared'}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
