// `npm run coupons -- add CODE --percent 20 --max 100 --until 2027-01-01`, `list`, `disable CODE`: the
// coupons of self-hosted billing (ADR 033), which users enter on the pricing page or at registration.
// A coupon gives a percentage (--percent) or an amount in US dollars (--amount) off; --max limits its
// redemptions, --until ends it at that day's start (UTC) or at the moment given. Works with the app
// running or stopped, on the embedded PostgreSQL of DATA_DIR or on DATABASE_URL. Stripe mode uses
// Stripe's promotion codes instead: create them in Stripe's dashboard.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { addCoupon, allCoupons, disableCouponCode } from '../server/billing/coupons.service';
import type { BillingCouponRow } from '../server/billing/billing.repo';
import { openDatabase, type Db } from '../server/platform/db/client';
import { openInstallationDatabase } from '../server/platform/db/installation-database';
import { loadEnv } from '../server/platform/env';
import { AppError } from '../server/platform/errors';

export const USAGE = `Usage:
  npm run coupons -- add CODE (--percent N | --amount DOLLARS) [--max N] [--until YYYY-MM-DD]
  npm run coupons -- list
  npm run coupons -- disable CODE`;

class UsageError extends Error {}

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new UsageError(`${flag} must be a number, not "${value}"`);
  return Number(value);
}

function until(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--until must be a date such as 2027-01-01, not "${value}"`);
  return date;
}

function dollarsToCents(dollars: number | undefined): number | undefined {
  if (dollars === undefined) return undefined;
  const cents = Math.round(dollars * 100);
  if (Math.abs(cents - dollars * 100) > 1e-6) throw new UsageError('--amount has at most two decimals (cents)');
  return cents;
}

export function describeCoupon(c: BillingCouponRow): string {
  const off = c.percentOff !== null ? `${c.percentOff}% off` : `$${((c.amountOffCents ?? 0) / 100).toFixed(2)} off`;
  const used = `${c.redemptions}${c.maxRedemptions !== null ? `/${c.maxRedemptions}` : ''} redeemed`;
  const end = c.validUntil ? `until ${c.validUntil.toISOString()}` : 'no end';
  return `${c.code}\t${off}\t${used}\t${end}${c.disabledAt ? `\tdisabled ${c.disabledAt.toISOString()}` : ''}`;
}

/** Runs one command line on `db` and answers what to print. */
export async function runCoupons(db: Db, argv: string[]): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      percent: { type: 'string' },
      amount: { type: 'string' },
      max: { type: 'string' },
      until: { type: 'string' },
    },
  });
  const [command, code, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`Unexpected "${extra.join(' ')}"`);
  const flagsGiven = Object.keys(values).length > 0;
  switch (command) {
    case 'add': {
      if (!code) throw new UsageError('add needs a CODE');
      const max = number('--max', values.max);
      const row = await addCoupon(db, {
        code,
        percentOff: number('--percent', values.percent) ?? null,
        amountOffCents: dollarsToCents(number('--amount', values.amount)) ?? null,
        maxRedemptions: max ?? null,
        validUntil: until(values.until) ?? null,
      });
      return `Added ${describeCoupon(row)}`;
    }
    case 'list': {
      if (code || flagsGiven) throw new UsageError('list takes nothing else');
      const rows = await allCoupons(db);
      return rows.length === 0 ? 'No coupons yet.' : rows.map(describeCoupon).join('\n');
    }
    case 'disable': {
      if (!code || flagsGiven) throw new UsageError('disable needs a CODE and nothing else');
      return `Disabled ${describeCoupon(await disableCouponCode(db, code))}`;
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}"` : 'Say add, list or disable');
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h') {
    console.log(USAGE);
    if (argv.length === 0) process.exitCode = 1;
    return;
  }
  const env = loadEnv();
  const installation = await openInstallationDatabase(env);
  const database = await openDatabase(installation.connection, 1);
  try {
    if (env.STRIPE_SECRET_KEY)
      console.error('Note: this server bills with Stripe, which uses its own promotion codes, not these coupons.');
    console.log(await runCoupons(database.db, argv));
  } finally {
    await database.close();
    await installation.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
    else if (error instanceof AppError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      console.error((error as Error).message);
    else console.error(error);
    process.exit(1);
  });
}
