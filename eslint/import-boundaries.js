// The layout's rules (docs/architecture.md), checked on every import:
// - server/platform/ is plumbing: it imports no engine, no capability and nothing above it;
// - server/engine/ is the domain knowledge capabilities share (message analysis, blocklists, DMARC policy,
//   mailbox providers): it imports the platform, contracts, content and itself, and no capability;
// - server/insights/ holds the read models that read several capabilities' tables (ADR 048): it imports the
//   platform, the engine, contracts, content and itself, and no capability;
// - a capability (server/<name>/) imports the platform, the engine, insights, contracts and content, and another
//   capability only through its public operations, the files named <something>.service.ts;
// - web/lib imports nothing else of the web; web/components import only lib; a web feature imports no other
//   feature and not web/app (pages are composed in web/app/);
// - contracts/ and content/ import neither side; server and web never import each other.
// Tests compose the whole app and are left out.
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Where a file sits in the layout. */
function placeOf(file) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  let m;
  if (/^(contracts|content)\//.test(rel)) return { layer: 'shared', rel };
  if (rel.startsWith('server/platform/')) return { layer: 'platform', rel };
  if (rel.startsWith('server/engine/')) return { layer: 'engine', rel };
  if (rel.startsWith('server/insights/')) return { layer: 'insights', rel };
  if (rel.startsWith('server/test/')) return { layer: 'server', rel };
  if ((m = rel.match(/^server\/([^/]+)\//))) return { layer: 'capability', name: m[1], rel };
  if (rel.startsWith('server/')) return { layer: 'server', rel };
  if (rel.startsWith('web/app/')) return { layer: 'web-app', rel };
  if ((m = rel.match(/^web\/features\/([^/]+)\//))) return { layer: 'feature', name: m[1], rel };
  if (rel.startsWith('web/lib/')) return { layer: 'web-lib', rel };
  if (rel.startsWith('web/components/')) return { layer: 'web-base', rel };
  if (rel.startsWith('web/')) return { layer: 'web-app', rel };
  return { layer: 'other', rel };
}

const side = (layer) =>
  ['platform', 'engine', 'insights', 'capability', 'server'].includes(layer)
    ? 'server'
    : ['web-app', 'feature', 'web-base', 'web-lib'].includes(layer)
      ? 'web'
      : layer;

/** Why `from` may not import `to`, or undefined when it may. */
export function refusal(from, to) {
  if (from.layer === 'other' || to.layer === 'other') return undefined;
  if (from.layer === 'shared')
    return to.layer === 'shared'
      ? undefined
      : 'contracts/ and content/ are shared by server and web and import neither';
  if (to.layer === 'shared') return undefined;
  if (side(from.layer) !== side(to.layer)) return 'server and web never import each other: share through contracts/';
  switch (from.layer) {
    case 'platform':
      return to.layer === 'platform'
        ? undefined
        : 'server/platform/ imports no engine, no capability and nothing above it: pass what it needs in, or register into it';
    case 'engine':
      return to.layer === 'platform' || to.layer === 'engine'
        ? undefined
        : 'server/engine/ imports only the platform and itself: a capability calls the engine, never the other way round';
    case 'insights':
      return ['platform', 'engine', 'insights'].includes(to.layer)
        ? undefined
        : 'server/insights/ imports only the platform, the engine and itself: capabilities read through it, never the other way round';
    case 'capability':
      if (['platform', 'engine', 'insights'].includes(to.layer)) return undefined;
      if (to.layer === 'capability') {
        if (to.name === from.name || /\.service\.ts$/.test(to.rel)) return undefined;
        return `a capability uses another only through its public operations (a *.service.ts file of server/${to.name}/)`;
      }
      return 'a capability imports nothing above it (app, runtime, jobs registry)';
    case 'web-lib':
      return to.layer === 'web-lib'
        ? undefined
        : 'web/lib is the bottom of the web: it imports no component, feature or web/app';
    case 'web-base':
      return to.layer === 'web-base' || to.layer === 'web-lib'
        ? undefined
        : 'web/components import no feature and not web/app';
    case 'feature':
      if (to.layer === 'web-base' || to.layer === 'web-lib') return undefined;
      if (to.layer === 'feature')
        return to.name === from.name
          ? undefined
          : 'a web feature imports no other feature: compose them in web/app/ or pass props';
      return 'a web feature does not import web/app/';
    default:
      return undefined;
  }
}

const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'];
function resolve(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const ext of EXTENSIONS) if (existsSync(base + ext) && (ext !== '' || path.extname(base))) return base + ext;
  return base;
}

// Test support lives in test/ folders (server/test, web/test, web/features/<f>/test) or in *.test-support.ts.
const isTest = (rel) => /(\.test\.tsx?|\.test-support\.ts|\.e2e\.ts)$/.test(rel) || /(^|\/)test\//.test(rel);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layout: no upward, cross-capability or cross-feature imports' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = placeOf(file);
    if (isTest(from.rel)) return {};
    function check(node) {
      const specifier = node.source?.value;
      // Packages, and the path aliases @contracts/ and @content/ (shared code, which every layer may import), pass.
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const why = refusal(from, placeOf(resolve(file, specifier)));
      if (why) context.report({ node: node.source, message: `${specifier}: ${why}.` });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
