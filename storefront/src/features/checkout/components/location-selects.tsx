import { KENYA_COUNTY_NAMES, type CheckoutForm } from '@spc/shared-contracts';
import { useQuery } from '@tanstack/react-query';
import type { UseFormRegister, UseFormSetValue } from 'react-hook-form';

/**
 * The counties' sub-counties and wards (10 KB gzip, most of the checkout's location code), loaded
 * once a county is chosen: the county picker shows at once from the names alone.
 */
function useCountyPlaces(county: string) {
  const { data } = useQuery({
    queryKey: ['kenya-locations'],
    queryFn: async () => (await import('@spc/shared-contracts/locations')).KENYA_COUNTIES,
    enabled: county !== '',
    staleTime: Infinity,
  });
  return data?.find((c) => c.name === county)?.sub_counties ?? [];
}

/** County -> sub-county -> ward from the embedded Kenyan location data. */
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
  const subCounties = useCountyPlaces(county);
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
          {KENYA_COUNTY_NAMES.map((name) => (
            <option key={name} value={name}>
              {name}
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
