ALTER TABLE "dmarc_reports" ADD COLUMN "schema" text;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD COLUMN "version" text;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD COLUMN "generator" text;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD COLUMN "discovery_method" text;--> statement-breakpoint
-- RFC 9990's "pass" disposition is a DMARC pass, whatever aligned results the record gives (dmarc.repo.ts
-- counts it so from now on): the sums of records stored before are counted again.
UPDATE "dmarc_source_days" SET "failed" = 0, "failed_misaligned" = 0 WHERE "disposition" = 'pass' AND "failed" > 0;--> statement-breakpoint
UPDATE "dmarc_reports" r SET "pass_count" = p.passed
FROM (
  SELECT report_id, coalesce(sum(count) FILTER (WHERE dkim_result = 'pass' OR spf_result = 'pass' OR disposition = 'pass'), 0) AS passed
  FROM "dmarc_records"
  WHERE report_id IN (SELECT report_id FROM "dmarc_records" WHERE disposition = 'pass')
  GROUP BY report_id
) p
WHERE r.id = p.report_id AND r.pass_count <> p.passed;
