import { build } from 'esbuild';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * What the server loads before its first answer: every package main.ts imports statically is read and
 * compiled on each start (bench:start). These packages are needed only by some jobs and checks, so they
 * are imported where they are used (ADR 061); a static import anywhere in the server's graph would bring
 * their start-up cost back.
 */
const LOADED_ON_FIRST_USE = ['mailauth', 'mailparser', 'imapflow'];

describe('start-up imports', () => {
  it('imports the packages only some jobs need on first use, not when the server starts', async () => {
    const result = await build({
      entryPoints: [path.join(import.meta.dirname, 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const staticImports = new Set(
      Object.values(result.metafile.inputs).flatMap((input) =>
        input.imports.filter((i) => i.external && i.kind === 'import-statement').map((i) => i.path),
      ),
    );
    const loadedAtStart = [...staticImports].filter((p) =>
      LOADED_ON_FIRST_USE.some((name) => p === name || p.startsWith(`${name}/`)),
    );
    expect(loadedAtStart).toEqual([]);
    // The check sees packages at all: the ones every start needs are there.
    expect(staticImports).toContain('fastify');
  });
});
