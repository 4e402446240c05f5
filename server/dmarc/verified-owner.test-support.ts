import { domains } from '../platform/db/schema/index';
import { signUp, type TestApp, type TestClient } from '../test/test-app';

/**
 * A new user who verified `domain`, so mailed reports for it reach them. The row is written directly: test
 * domains (RFC 2606 names such as consumer.example) do not verify in real DNS, and Add Domain refuses some.
 */
export async function verifiedOwnerOf(
  t: TestApp,
  domain: string,
): Promise<{ client: TestClient; user: { id: number } }> {
  const owner = await signUp(t.app);
  await t.database.db
    .insert(domains)
    .values({ userId: owner.user.id, domain, isVerified: true, verificationToken: `token-${owner.user.id}` });
  return owner;
}
