import { describe, expect, it } from 'vitest';
import { groupByZone } from './zones.ts';

describe('groupByZone', () => {
  it('groups per zone, known zones first (also when empty), others alphabetically, buckets by name', () => {
    const groups = groupByZone(
      [
        { name: 'zeta-bucket', location: 'pek3a' },
        { name: 'alpha-bucket', location: 'pek3a' },
        { name: 'logs-bucket', location: 'sh1a' },
        { name: 'gd-bucket', location: 'gd2' },
      ],
      ['pek3b', 'pek3a'],
    );
    expect(groups.map(([zone, list]) => [zone, list.map((b) => b.name)])).toEqual([
      ['pek3b', []],
      ['pek3a', ['alpha-bucket', 'zeta-bucket']],
      ['gd2', ['gd-bucket']],
      ['sh1a', ['logs-bucket']],
    ]);
  });
});
