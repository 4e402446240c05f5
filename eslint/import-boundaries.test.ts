import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

/** The layout rule's complaints about `code` if it stood in `file`. */
async function complaints(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === 'layout/import-boundaries').map((m) => m.message);
}

describe('npm run lint: the layout rule', () => {
  it('fails on a planted cross-feature import in the web', async () => {
    expect(
      await complaints(
        'web/features/domains/planted.ts',
        "import { dmarcQuery } from '../dmarc/api';\nexport const x = dmarcQuery;\n",
      ),
    ).toEqual(['../dmarc/api: a web feature imports no other feature: compose them in web/app/ or pass props.']);
  });

  it('fails when the platform imports a capability, or a capability another one past its public operations', async () => {
    expect(
      await complaints(
        'server/platform/smtp/planted.ts',
        "import { x } from '../../inbox-tests/inbox-tests.store';\nexport { x };\n",
      ),
    ).toHaveLength(1);
    expect(
      await complaints('server/domains/planted.ts', "import { x } from '../alerts/alerts.store';\nexport { x };\n"),
    ).toHaveLength(1);
    expect(
      await complaints('server/domains/planted.ts', "import { x } from '../../web/lib/format';\nexport { x };\n"),
    ).toHaveLength(1);
    expect(
      await complaints('web/lib/planted.ts', "import { x } from '../features/domains/api';\nexport { x };\n"),
    ).toHaveLength(1);
    expect(
      await complaints(
        'web/lib/planted.ts',
        "import { toast } from '../components/ui/use-toast';\nexport { toast };\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps the engine between the platform and the capabilities', async () => {
    expect(
      await complaints(
        'server/platform/smtp/planted.ts',
        "import { x } from '../../engine/blocklists/dnsbl';\nexport { x };\n",
      ),
    ).toEqual([
      '../../engine/blocklists/dnsbl: server/platform/ imports no engine, no capability and nothing above it: pass what it needs in, or register into it.',
    ]);
    expect(
      await complaints(
        'server/engine/blocklists/planted.ts',
        "import { x } from '../../reputation/reputation-run.service';\nexport { x };\n",
      ),
    ).toEqual([
      '../../reputation/reputation-run.service: server/engine/ imports only the platform and itself: a capability calls the engine, never the other way round.',
    ]);
    expect(
      await complaints('server/engine/message-analysis/planted.ts', "import { x } from '../../app';\nexport { x };\n"),
    ).toHaveLength(1);
    expect(
      await complaints(
        'server/engine/message-analysis/planted.ts',
        "import { x } from '../../platform/dns/resolver';\nimport { y } from '../blocklists/dnsbl';\nimport { z } from '@contracts/inbox-tests';\nexport { x, y, z };\n",
      ),
    ).toEqual([]);
    expect(
      await complaints(
        'server/reputation/planted.ts',
        "import { x } from '../engine/blocklists/dnsbl';\nexport { x };\n",
      ),
    ).toEqual([]);
  });

  it('keeps insights between the engine and the capabilities', async () => {
    expect(
      await complaints('server/insights/planted.ts', "import { x } from '../dmarc/dmarc.service';\nexport { x };\n"),
    ).toEqual([
      '../dmarc/dmarc.service: server/insights/ imports only the platform, the engine and itself: capabilities read through it, never the other way round.',
    ]);
    expect(
      await complaints(
        'server/platform/db/planted.ts',
        "import { x } from '../../insights/user-domains';\nexport { x };\n",
      ),
    ).toHaveLength(1);
    expect(
      await complaints(
        'server/engine/blocklists/planted.ts',
        "import { x } from '../../insights/user-domains';\nexport { x };\n",
      ),
    ).toHaveLength(1);
    expect(
      await complaints(
        'server/insights/planted.ts',
        "import { x } from '../platform/db/client';\nimport { y } from '../engine/blocklists/dnsbl';\nexport { x, y };\n",
      ),
    ).toEqual([]);
    expect(
      await complaints('server/timeline/planted.ts', "import { x } from '../insights/user-domains';\nexport { x };\n"),
    ).toEqual([]);
  });

  it('lets each layer import what lies below it', async () => {
    expect(
      await complaints(
        'server/domains/planted.ts',
        "import { raiseAlert } from '../alerts/alerts.service';\nimport { AppError } from '../platform/errors';\nimport { Domain } from '../../contracts/domains';\nexport { raiseAlert, AppError, Domain };\n",
      ),
    ).toEqual([]);
    expect(
      await complaints('server/runtime-planted.ts', "import { x } from './domains/domains.routes';\nexport { x };\n"),
    ).toEqual([]);
    expect(
      await complaints(
        'web/features/domains/planted.ts',
        "import { x } from '../../lib/format';\nimport { y } from './api';\nexport { x, y };\n",
      ),
    ).toEqual([]);
  });
});
