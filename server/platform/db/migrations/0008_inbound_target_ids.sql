ALTER TABLE "inbound_messages" ADD COLUMN "target_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Messages stored before this change and not processed yet: their tests, found as the listener would
-- have found them (a test's own address, compared in lower case).
UPDATE "inbound_messages" m SET "target_ids" = ARRAY(
  SELECT t."id" FROM "inbox_tests" t WHERE t."test_email_address" IN (SELECT lower(r) FROM unnest(m."rcpt_to") r) ORDER BY t."id"
) WHERE m."kind" = 'inbox_test' AND m."status" = 'received';
