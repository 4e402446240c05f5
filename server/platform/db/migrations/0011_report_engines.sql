-- Reports say which engines scored them (contracts/inbox-tests.ts ScoringEngine). The reports stored
-- before that: InboxPulse's checks ran; SpamAssassin ran, failed or was not configured as their
-- spamAssassin field shows.
UPDATE "inbox_test_reports"
SET "report" = "report" || jsonb_build_object('engines', jsonb_build_array(
  jsonb_build_object('id', 'inboxpulse', 'name', 'InboxPulse checks', 'status', 'ran'),
  jsonb_build_object('id', 'spamassassin', 'name', 'SpamAssassin', 'status',
    CASE
      WHEN jsonb_typeof("report"->'spamAssassin') IS DISTINCT FROM 'object' THEN 'not-configured'
      WHEN jsonb_typeof("report"->'spamAssassin'->'error') = 'string' THEN 'failed'
      ELSE 'ran'
    END)))
WHERE NOT ("report" ? 'engines');
