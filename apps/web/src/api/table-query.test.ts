import { employeeContracts, staffContracts } from '@werkwissen/shared';
import { describe, expect, it } from 'vitest';
import { filterValue, tableQuery } from './table-query.ts';

describe('tableQuery', () => {
  it('passes paging, search and a sort the contract lists', () => {
    expect(
      tableQuery(employeeContracts.list.querystring, { page: 2, pageSize: 25, sort: '-lastName', q: 'anna' }),
    ).toEqual({ page: 2, pageSize: 25, sort: '-lastName', q: 'anna' });
    expect(tableQuery(employeeContracts.list.querystring, { page: 1, pageSize: 10 })).toEqual({
      page: 1,
      pageSize: 10,
      sort: undefined,
    });
  });

  it('refuses a sort the contract does not list, before any request', () => {
    expect(() =>
      tableQuery(employeeContracts.list.querystring, { page: 1, pageSize: 10, sort: 'password' }),
    ).toThrow();
  });
});

describe('filterValue', () => {
  const status = staffContracts.list.querystring.shape.status;

  it("turns the select's empty choice into no filter and keeps a known value", () => {
    expect(filterValue(status, '')).toBeUndefined();
    expect(filterValue(status, 'invited')).toBe('invited');
  });

  it('refuses a value the contract does not know', () => {
    expect(() => filterValue(status, 'sleeping')).toThrow();
  });
});
