import { describe, expect, it } from 'vitest';
import { DIMENSIONS, reasonsByDimension } from './dimensions';

describe('DIMENSIONS', () => {
  it('knows all 23 dimensions with their floors', () => {
    expect(Object.keys(DIMENSIONS)).toHaveLength(23);
    expect(DIMENSIONS.requestRate.floor).toBe(1);
    expect(DIMENSIONS.requestBodySize.floor).toBe(65_536);
    expect(DIMENSIONS.processCpu.quantity).toBe('millicores');
  });
});

describe('reasonsByDimension', () => {
  const refusal = (code: string, message: string, details?: unknown) => ({ error: { code, message, details } });

  it('splits a 422 message into the reason of each named dimension', () => {
    const error = refusal(
      'capacity_below_floor',
      'Nothing was changed: requestRate 0 is below its floor of 1; ' +
        'fileSize 6291456 is above its platform ceiling of 5242880.',
    );
    const reasons = reasonsByDimension(error, ['requestRate', 'fileSize']);
    expect(reasons.get('requestRate')).toEqual(['requestRate 0 is below its floor of 1']);
    expect(reasons.get('fileSize')).toEqual(['fileSize 6291456 is above its platform ceiling of 5242880']);
  });

  it('places validation details by their path', () => {
    const error = refusal('validation_failed', 'The request is invalid.', [
      { path: '/body/limits/teamCount', message: 'must be >= 0' },
    ]);
    expect(reasonsByDimension(error, ['teamCount']).get('teamCount')).toEqual(['teamCount must be >= 0']);
  });

  it('gives a reason that names no dimension to every dimension sent', () => {
    const reasons = reasonsByDimension(refusal('rate_limited', 'Too many requests.'), ['memberCount', 'teamCount']);
    expect(reasons.get('memberCount')).toEqual(['Too many requests.']);
    expect(reasons.get('teamCount')).toEqual(['Too many requests.']);
    expect(reasonsByDimension(new Error('Failed to fetch'), ['teamCount']).get('teamCount')).toBeUndefined();
  });
});
