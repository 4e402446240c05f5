import { describe, expect, it } from 'vitest';
import { badgeCount, relativeAge, userInitial } from './format';

describe('format', () => {
  it('relativeAge: under an hour "Just now", then hours, then days', () => {
    const now = new Date('2025-06-10T12:00:00Z');
    expect(relativeAge('2025-06-10T11:30:00Z', now)).toBe('Just now');
    expect(relativeAge('2025-06-10T07:00:00Z', now)).toBe('5h ago');
    expect(relativeAge('2025-06-07T12:00:00Z', now)).toBe('3d ago');
  });

  it('userInitial and badgeCount', () => {
    expect(userInitial('ada')).toBe('A');
    expect(userInitial('')).toBe('?');
    expect(badgeCount(7)).toBe('7');
    expect(badgeCount(150)).toBe('99+');
  });
});
