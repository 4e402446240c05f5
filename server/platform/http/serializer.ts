import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

/** A frozen object of primitives: nothing in it can change, so neither can its JSON. */
function immutable(data: object): boolean {
  if (!Object.isFrozen(data)) return false;
  for (const key in data) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) return false;
  }
  return true;
}

/**
 * The routes' serializer: fastify-type-provider-zod's (the answer checked against the route's response
 * schema, then JSON), made once per immutable answer. The signed-in user of a cached session is one
 * (toUser), asked for on every page the web app opens; its JSON is kept by identity, weakly, so it
 * goes when the cached row does.
 */
export const serializeAnswers: FastifySerializerCompiler<ZodType> = (route) => {
  const serialize = serializerCompiler(route);
  const made = new WeakMap<object, string>();
  return (data: unknown) => {
    if (typeof data !== 'object' || data === null || !immutable(data)) return serialize(data);
    let json = made.get(data);
    if (json === undefined) made.set(data, (json = serialize(data)));
    return json;
  };
};
