import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializeAnswers } from './serializer';

let checks = 0; // how often an answer went through the schema
const Answer = z.object({
  id: z.number().transform((id) => (checks++, id)),
  name: z.string(),
  tags: z.array(z.string()).optional(),
});
const serializerFor = () => serializeAnswers({ schema: Answer, method: 'GET', url: '/x', httpStatus: '200' });

describe('the answer serializer', () => {
  it('writes what the response schema lets through, and refuses what breaks it', () => {
    const serialize = serializerFor();
    expect(serialize({ id: 1, name: 'a', secret: 'never' })).toBe('{"id":1,"name":"a"}');
    expect(() => serialize(Object.freeze({ id: 'one', name: 'a' }))).toThrow();
  });

  it('writes a frozen answer of plain values once, and a changed copy anew', () => {
    const serialize = serializerFor();
    const frozen = Object.freeze({ id: 1, name: 'a' });
    checks = 0;
    expect(serialize(frozen)).toBe('{"id":1,"name":"a"}');
    expect(serialize(frozen)).toBe('{"id":1,"name":"a"}');
    expect(checks).toBe(1);
    expect(serialize(Object.freeze({ ...frozen, name: 'b' }))).toBe('{"id":1,"name":"b"}');
  });

  it('never reuses the JSON of an answer that can still change', () => {
    const serialize = serializerFor();
    const open = { id: 1, name: 'a' };
    checks = 0;
    expect(serialize(open)).toBe('{"id":1,"name":"a"}');
    open.name = 'b';
    expect(serialize(open)).toBe('{"id":1,"name":"b"}');
    expect(checks).toBe(2);
    const shallow = Object.freeze({ id: 1, name: 'a', tags: ['x'] });
    expect(serialize(shallow)).toBe('{"id":1,"name":"a","tags":["x"]}');
    shallow.tags.push('y');
    expect(serialize(shallow)).toBe('{"id":1,"name":"a","tags":["x","y"]}');
  });
});
