/**
 * The three location pickers as they show while their list (location-selects.tsx, with the 47
 * counties' sub-counties and wards) is still loading: disabled, with the same labels and empty
 * choices, in the place and size they take once it is in. Nothing is imported from that module:
 * it would pull the list in.
 */
const FIELDS = [
  { id: 'county', label: 'County', empty: 'Select county' },
  { id: 'subCounty', label: 'Sub-county', empty: 'Select sub-county' },
  { id: 'ward', label: 'Ward', empty: 'Select ward' },
] as const;

export function PendingLocationSelects() {
  return (
    <>
      {FIELDS.map((f) => (
        <div key={f.id} className="field">
          <label htmlFor={f.id}>{f.label}</label>
          <select id={f.id} disabled aria-busy="true">
            <option value="">{f.empty}</option>
          </select>
        </div>
      ))}
    </>
  );
}
