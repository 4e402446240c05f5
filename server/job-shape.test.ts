import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Keeps the one job shape (docs/architecture.md): a job's definition (`*.job.ts`) imports only zod,
// contracts/ and platform/, so any layer may queue it; what the worker runs is a runner
// (`defineRunner` in a `*.runner.ts` file), listed in job-registry.ts.

const SERVER = path.dirname(new URL(import.meta.url).pathname);
const PLATFORM = path.join(SERVER, 'platform') + path.sep;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(full);
    return [full];
  });

const importsOf = (source: string): string[] =>
  [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

/** Why `specifier`, imported by the definition `file`, breaks the shape; undefined when it is allowed. */
function definitionImportProblem(file: string, specifier: string): string | undefined {
  if (specifier === 'zod' || specifier.startsWith('@contracts/')) return undefined;
  if (specifier.startsWith('.') && path.resolve(path.dirname(file), specifier).startsWith(PLATFORM)) return undefined;
  return `${path.relative(SERVER, file)} imports '${specifier}': a job definition imports only zod, contracts/ and platform/`;
}

/** Why each name job-registry.ts lists is not a runner defined by defineRunner in a *.runner.ts file. */
function registryProblems(registrySource: string, readModule: (file: string) => string): string[] {
  const listed = registrySource.match(/jobRegistry[^=]*=\s*\[([\s\S]*?)\];/)?.[1] ?? '';
  const names = [...listed.matchAll(/(?:\.\.\.)?(\w+)/g)].map((m) => m[1]!);
  const problems: string[] = [];
  for (const name of names) {
    const from = registrySource.match(new RegExp(`import\\s*\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*'([^']+)'`))?.[1];
    const file = from && path.join(SERVER, `${from}.ts`);
    const relative = file ? path.relative(SERVER, file) : '(not imported)';
    if (!file || !file.endsWith('.runner.ts'))
      problems.push(`job-registry.ts lists ${name} from ${relative}: it lists runners, from *.runner.ts files`);
    else if (!new RegExp(`export const ${name}\\b[^=]*=\\s*defineRunner\\(`).test(readModule(file)))
      problems.push(`job-registry.ts lists ${name}: ${relative} does not define it with defineRunner`);
  }
  return problems;
}

describe('the job shape', () => {
  it('a job definition imports only zod, contracts/ and platform/', () => {
    const definitions = filesUnder(SERVER).filter((file) => file.endsWith('.job.ts'));
    expect(definitions.length).toBeGreaterThan(0);
    const problems = definitions.flatMap((file) =>
      importsOf(readFileSync(file, 'utf8')).flatMap((specifier) => definitionImportProblem(file, specifier) ?? []),
    );
    expect(problems).toEqual([]);
  });

  it('job-registry.ts lists only runners defined by defineRunner in *.runner.ts files', () => {
    const registry = readFileSync(path.join(SERVER, 'job-registry.ts'), 'utf8');
    expect(registryProblems(registry, (file) => readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('names the file of a definition that imports a capability, and a listed job that is not a runner', () => {
    const planted = path.join(SERVER, 'alerts', 'planted.job.ts');
    expect(definitionImportProblem(planted, '../dmarc/dmarc.service')).toBe(
      "alerts/planted.job.ts imports '../dmarc/dmarc.service': a job definition imports only zod, contracts/ and platform/",
    );
    expect(definitionImportProblem(planted, '../platform/job-sender')).toBeUndefined();
    expect(definitionImportProblem(planted, '@contracts/alerts')).toBeUndefined();

    const registry = `import { plantedJob } from './alerts/planted.job';
import { fakeRunner } from './alerts/fake.runner';
export const jobRegistry: AnyJob[] = [plantedJob, fakeRunner];`;
    expect(registryProblems(registry, () => "export const fakeRunner = { name: 'fake' };")).toEqual([
      'job-registry.ts lists plantedJob from alerts/planted.job.ts: it lists runners, from *.runner.ts files',
      'job-registry.ts lists fakeRunner: alerts/fake.runner.ts does not define it with defineRunner',
    ]);
  });
});
