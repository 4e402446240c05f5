CREATE TABLE "dmarc_source_days" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"domain" text NOT NULL,
	"source_ip" text NOT NULL,
	"disposition" text NOT NULL,
	"total" bigint NOT NULL,
	"spf_aligned" bigint NOT NULL,
	"dkim_aligned" bigint NOT NULL,
	"failed" bigint NOT NULL,
	"failed_misaligned" bigint NOT NULL,
	CONSTRAINT "dmarc_source_days_user_id_day_domain_source_ip_disposition_pk" PRIMARY KEY("user_id","day","domain","source_ip","disposition")
);
--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD COLUMN "sender_authenticated" boolean;--> statement-breakpoint
ALTER TABLE "dmarc_source_days" ADD CONSTRAINT "dmarc_source_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The reports stored so far, summed as dmarc.repo.ts keeps them from now on (addToSourceDays).
INSERT INTO "dmarc_source_days" ("user_id", "day", "domain", "source_ip", "disposition", "total", "spf_aligned", "dkim_aligned", "failed", "failed_misaligned")
SELECT r.user_id, (r.date_begin AT TIME ZONE 'UTC')::date, r.domain, d.source_ip, d.disposition,
  sum(d.count),
  coalesce(sum(d.count) FILTER (WHERE d.spf_result = 'pass'), 0),
  coalesce(sum(d.count) FILTER (WHERE d.dkim_result = 'pass'), 0),
  coalesce(sum(d.count) FILTER (WHERE d.dkim_result <> 'pass' AND d.spf_result <> 'pass'), 0),
  coalesce(sum(d.count) FILTER (WHERE d.dkim_result <> 'pass' AND d.spf_result <> 'pass'
    AND (d.dkim_auth @> '[{"result":"pass"}]' OR d.spf_auth @> '[{"result":"pass"}]')), 0)
FROM "dmarc_records" d JOIN "dmarc_reports" r ON r.id = d.report_id
WHERE r.status = 'imported' AND r.domain IS NOT NULL AND r.date_begin IS NOT NULL
GROUP BY 1, 2, 3, 4, 5;
