import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { OPENAPI_PATH } from '@content/docs/api-reference';
import { QueryState } from '../../../components/query-state';
import { Input } from '../../../components/ui/input';
import { apiJson } from '../../../lib/api-client';

/*
 * The interactive reference: every operation of the OpenAPI document the server serves, grouped by
 * tag, each expandable to its parameters, request body and answers. Read from the document at run
 * time, so it lists exactly the routes the server has; no third-party viewer.
 */

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string };
  tags?: { name: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface ReferenceOperation {
  method: string;
  path: string;
  operation: Operation;
}

/** The document's operations by tag, in the document's tag order, each tag's operations by path. */
export function operationsByTag(doc: OpenApiDocument): [tag: string, operations: ReferenceOperation[]][] {
  const groups = new Map<string, ReferenceOperation[]>((doc.tags ?? []).map((t) => [t.name, []]));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return [...groups.entries()].filter(([, operations]) => operations.length > 0);
}

/** Who may call an operation, from the document's security schemes (server/platform/http/openapi.ts). */
function access(operation: Operation): string {
  const schemes = new Set((operation.security ?? []).flatMap((s) => Object.keys(s)));
  if (schemes.size === 0) return 'Public';
  if (schemes.has('webhookToken')) return 'Webhook token';
  if (!schemes.has('bearerKey')) return 'Session only';
  return schemes.has('sessionCookie') ? 'API key or session' : 'API key only';
}

function resolve(schema: Schema, doc: OpenApiDocument): Schema {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/'))
    return doc.components?.schemas?.[ref.slice('#/components/schemas/'.length)] ?? schema;
  return schema;
}

function typeLabel(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const type = Array.isArray(schema.type)
    ? schema.type.join(' | ')
    : typeof schema.type === 'string'
      ? schema.type
      : '';
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  return `${type || 'any'}${format}`;
}

/** A schema as a tree of fields: names, types, required marks, nested objects and array items. */
function SchemaView({ schema: given, doc, depth = 0 }: { schema: Schema; doc: OpenApiDocument; depth?: number }) {
  const schema = resolve(given, doc);
  if (depth > 8) return <span className="text-muted-foreground">…</span>;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) {
    const nonNull = alternatives.filter((alt) => resolve(alt, doc).type !== 'null');
    const nullable = nonNull.length < alternatives.length;
    if (nonNull.length === 1)
      return (
        <span>
          {nullable && <span className="text-muted-foreground">nullable </span>}
          <SchemaView schema={nonNull[0]!} doc={doc} depth={depth + 1} />
        </span>
      );
    return (
      <ul className="ml-4 list-disc">
        {alternatives.map((alt, i) => (
          <li key={i}>
            <SchemaView schema={alt} doc={doc} depth={depth + 1} />
          </li>
        ))}
      </ul>
    );
  }
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    return (
      <span>
        <span className="text-muted-foreground">array of </span>
        <SchemaView schema={schema.items as Schema} doc={doc} depth={depth + 1} />
      </span>
    );
  }
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties && Object.keys(properties).length > 0) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    return (
      <span>
        <span className="text-muted-foreground">object</span>
        <ul className="ml-4 border-l pl-3">
          {Object.entries(properties).map(([name, property]) => (
            <li key={name} className="py-0.5">
              <code className="font-mono font-medium">{name}</code>
              {required.has(name) ? <span className="text-red-600">*</span> : null}
              <span className="text-muted-foreground">: </span>
              <SchemaView schema={property} doc={doc} depth={depth + 1} />
              {typeof property.description === 'string' && (
                <span className="block text-muted-foreground">{property.description}</span>
              )}
            </li>
          ))}
        </ul>
      </span>
    );
  }
  return <code className="font-mono text-blue-700">{typeLabel(schema)}</code>;
}

function jsonSchemaOf(content: Record<string, { schema?: Schema }> | undefined): Schema | undefined {
  if (!content) return undefined;
  return (content['application/json'] ?? Object.values(content)[0])?.schema;
}

function OperationView({ entry, doc }: { entry: ReferenceOperation; doc: OpenApiDocument }) {
  const { operation } = entry;
  const body = jsonSchemaOf(operation.requestBody?.content);
  // A closed operation renders only its summary line: the document has dozens of large schemas.
  const [open, setOpen] = useState(false);
  return (
    <details
      className="rounded-md border"
      data-testid="reference-operation"
      data-operation={`${entry.method} ${entry.path}`}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 text-sm">
        <span className="w-16 font-mono font-semibold">{entry.method}</span>
        {/* A long path wraps anywhere rather than widening the page on a phone. */}
        <code className="min-w-0 font-mono break-all">{entry.path}</code>
        {operation.summary && <span className="text-muted-foreground">{operation.summary}</span>}
        <span className="ml-auto text-xs text-muted-foreground">{access(operation)}</span>
      </summary>
      {open && (
        <div className="space-y-3 border-t px-3 py-3 text-sm">
          {operation.description && <p>{operation.description}</p>}
          {operation.parameters && operation.parameters.length > 0 && (
            <div>
              <h4 className="font-semibold">Parameters</h4>
              <ul className="ml-4 list-disc">
                {operation.parameters.map((p) => (
                  <li key={`${p.in}:${p.name}`}>
                    <code className="font-mono font-medium">{p.name}</code>
                    {p.required ? <span className="text-red-600">*</span> : null}{' '}
                    <span className="text-muted-foreground">({p.in})</span>:{' '}
                    {p.schema ? <SchemaView schema={p.schema} doc={doc} /> : 'any'}
                    {p.description && <span className="text-muted-foreground"> {p.description}</span>}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {body && (
            <div>
              <h4 className="font-semibold">Request body</h4>
              <SchemaView schema={body} doc={doc} />
            </div>
          )}
          <div>
            <h4 className="font-semibold">Answers</h4>
            <ul className="space-y-2">
              {Object.entries(operation.responses ?? {}).map(([status, response]) => {
                const schema = jsonSchemaOf(response.content);
                return (
                  <li key={status}>
                    <span className="font-mono font-semibold">{status}</span>
                    {response.description && <span className="text-muted-foreground"> {response.description}</span>}
                    {schema && (
                      <div className="mt-1">
                        <SchemaView schema={schema} doc={doc} />
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        </div>
      )}
    </details>
  );
}

/** The reference, read from the server's OpenAPI document. */
export function OpenApiReference() {
  const query = useQuery({
    queryKey: [OPENAPI_PATH],
    queryFn: async () => (await apiJson('GET', OPENAPI_PATH)) as OpenApiDocument,
    staleTime: Infinity,
    retry: false,
  });
  return (
    <QueryState
      query={query}
      loading={<p className="text-sm text-muted-foreground">Loading the reference…</p>}
      // Where the reference cannot be drawn, the document itself is the way on, not a retry.
      failed={() => (
        <p className="text-sm text-muted-foreground" data-testid="reference-unavailable">
          The reference could not be loaded. The OpenAPI document is at <a href={OPENAPI_PATH}>{OPENAPI_PATH}</a>.
        </p>
      )}
    >
      {(spec) => <Operations spec={spec} />}
    </QueryState>
  );
}

function Operations({ spec }: { spec: OpenApiDocument }) {
  const [filter, setFilter] = useState('');
  const groups = useMemo(() => operationsByTag(spec), [spec]);
  const needle = filter.trim().toLowerCase();
  const shown = groups
    .map(
      ([tag, operations]) =>
        [
          tag,
          operations.filter(
            (o) => !needle || `${o.method} ${o.path} ${o.operation.summary ?? ''}`.toLowerCase().includes(needle),
          ),
        ] as const,
    )
    .filter(([, operations]) => operations.length > 0);
  return (
    <div className="space-y-4" data-testid="openapi-reference">
      <Input
        type="search"
        aria-label="Filter operations"
        placeholder="Filter by path or method, e.g. domains"
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        className="max-w-sm"
      />
      {shown.map(([tag, operations]) => (
        <div key={tag} className="space-y-2">
          <h3 className="text-lg font-semibold">{tag}</h3>
          {operations.map((entry) => (
            <OperationView key={`${entry.method} ${entry.path}`} entry={entry} doc={spec} />
          ))}
        </div>
      ))}
      {shown.length === 0 && <p className="text-sm text-muted-foreground">No operation matches “{filter}”.</p>}
    </div>
  );
}
