ALTER TABLE "dmarc_reports" ADD COLUMN "unauthenticated_reason" text;--> statement-breakpoint
-- Unauthenticated reports leave the analytics (issue 36): take the ones stored so far out of the sums, as
-- dmarc.repo.ts addToSourceDays would have with sign -1, and drop the rows that fall to nothing.
WITH apart AS (
  SELECT r.user_id, (r.date_begin AT TIME ZONE 'UTC')::date AS day, r.domain, d.source_ip, d.disposition,
    sum(d.count) AS total,
    coalesce(sum(d.count) FILTER (WHERE d.spf_result = 'pass'), 0) AS spf_aligned,
    coalesce(sum(d.count) FILTER (WHERE d.dkim_result = 'pass'), 0) AS dkim_aligned,
    coalesce(sum(d.count) FILTER (WHERE d.dkim_result <> 'pass' AND d.spf_result <> 'pass' AND d.disposition <> 'pass'), 0) AS failed,
    coalesce(sum(d.count) FILTER (WHERE d.dkim_result <> 'pass' AND d.spf_result <> 'pass' AND d.disposition <> 'pass'
      AND (d.dkim_auth @> '[{"result":"pass"}]' OR d.spf_auth @> '[{"result":"pass"}]')), 0) AS failed_misaligned
  FROM "dmarc_records" d JOIN "dmarc_reports" r ON r.id = d.report_id
  WHERE r.status = 'imported' AND r.sender_authenticated = false AND r.domain IS NOT NULL AND r.date_begin IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5
)
UPDATE "dmarc_source_days" s SET
  "total" = s.total - a.total, "spf_aligned" = s.spf_aligned - a.spf_aligned, "dkim_aligned" = s.dkim_aligned - a.dkim_aligned,
  "failed" = s.failed - a.failed, "failed_misaligned" = s.failed_misaligned - a.failed_misaligned
FROM apart a
WHERE s.user_id = a.user_id AND s.day = a.day AND s.domain = a.domain AND s.source_ip = a.source_ip AND s.disposition = a.disposition;--> statement-breakpoint
DELETE FROM "dmarc_source_days" WHERE "total" <= 0;
