/**
 * Names for a date picker's arrow buttons (Mantine leaves them unnamed): spread into every
 * DatePickerInput, so a screen reader says what each arrow does at any level (month, year, decade).
 */
export const calendarLabels = { previousLabel: 'Previous', nextLabel: 'Next' } as const;
