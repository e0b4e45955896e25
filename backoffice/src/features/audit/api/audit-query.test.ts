import {
  auditApiQuery,
  isFiltered,
  NO_FILTERS,
  readAuditSearch,
  writeAuditSearch,
} from './audit-query';

describe('audit filters in the address', () => {
  it('hides customers’ sign-ins on the plain screen, page 1', () => {
    expect(readAuditSearch(new URLSearchParams(''))).toEqual({ filters: NO_FILTERS, page: 1 });
    expect(writeAuditSearch(NO_FILTERS).toString()).toBe('');
    expect(isFiltered(NO_FILTERS)).toBe(false);
  });

  it('reads back every filter and the page it wrote', () => {
    const filters = {
      user: '64b7f0c2a1b2c3d4e5f60718',
      role: 'staff' as const,
      action: 'category.create',
      from: '2026-11-01',
      to: '2026-11-30',
      hideCustomerSignIns: false,
    };
    const search = writeAuditSearch(filters, 3);
    expect(search.toString()).toBe(
      'user=64b7f0c2a1b2c3d4e5f60718&role=staff&action=category.create&from=2026-11-01&to=2026-11-30&signIns=all&page=3',
    );
    expect(readAuditSearch(search)).toEqual({ filters, page: 3 });
    expect(isFiltered(filters)).toBe(true);
  });

  it('leaves out what is malformed instead of sending it', () => {
    const { filters, page } = readAuditSearch(
      new URLSearchParams('role=guest&from=yesterday&to=2026-11-3&page=-2&signIns=maybe'),
    );
    expect(filters).toEqual(NO_FILTERS);
    expect(page).toBe(1);
  });

  it('asks the API for exactly the filters set', () => {
    expect(auditApiQuery(NO_FILTERS)).toEqual({ hideCustomerSignIns: 'true' });
    expect(
      auditApiQuery({
        role: 'admin',
        from: '2026-11-02',
        to: '2026-11-02',
        hideCustomerSignIns: false,
      }),
    ).toEqual({ role: 'admin', from: '2026-11-02', to: '2026-11-02' });
  });
});
