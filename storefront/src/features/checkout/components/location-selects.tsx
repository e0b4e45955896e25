import { KENYA_COUNTIES } from '@spc/shared-contracts/locations';
import type { UseFormRegister, UseFormSetValue } from 'react-hook-form';
import type { CheckoutForm } from '@spc/shared-contracts';

/**
 * County -> sub-county -> ward from the embedded Kenyan location data (most of this module). The
 * checkout loads it beside its form and shows PendingLocationSelects (location-fields.tsx, the same
 * labels and empty choices) meanwhile.
 */
export function LocationSelects({
  county,
  subCounty,
  register,
  setValue,
  countyError,
}: {
  county: string;
  subCounty: string;
  register: UseFormRegister<CheckoutForm>;
  setValue: UseFormSetValue<CheckoutForm>;
  countyError?: string;
}) {
  const subCounties = KENYA_COUNTIES.find((c) => c.name === county)?.sub_counties ?? [];
  const wards = subCounties.find((s) => s.name === subCounty)?.wards ?? [];
  const countyReg = register('county', {
    onChange: () => {
      setValue('subCounty', '');
      setValue('ward', '');
    },
  });
  const subReg = register('subCounty', { onChange: () => setValue('ward', '') });
  return (
    <>
      <div className="field">
        <label htmlFor="county">County</label>
        <select
          id="county"
          {...countyReg}
          aria-invalid={Boolean(countyError)}
          aria-describedby={countyError ? 'county-error' : undefined}
        >
          <option value="">Select county</option>
          {KENYA_COUNTIES.map((c) => (
            <option key={c.code + c.name} value={c.name}>
              {c.name}
            </option>
          ))}
        </select>
        {countyError && (
          <p id="county-error" className="field-error">
            {countyError}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="subCounty">Sub-county</label>
        <select id="subCounty" {...subReg} disabled={!subCounties.length}>
          <option value="">Select sub-county</option>
          {[...new Set(subCounties.map((s) => s.name))].map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="ward">Ward</label>
        <select id="ward" {...register('ward')} disabled={!wards.length}>
          <option value="">Select ward</option>
          {[...new Set(wards)].map((w) => (
            <option key={w} value={w}>
              {w}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}
