CREATE TABLE "dmarc_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"report_id" integer NOT NULL,
	"source_ip" text NOT NULL,
	"count" integer NOT NULL,
	"disposition" text NOT NULL,
	"dkim_result" text NOT NULL,
	"spf_result" text NOT NULL,
	"header_from" text NOT NULL,
	"envelope_from" text,
	"envelope_to" text,
	"dkim_auth" jsonb NOT NULL,
	"spf_auth" jsonb NOT NULL,
	"reason" jsonb
);
--> statement-breakpoint
CREATE TABLE "dmarc_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"file_name" text NOT NULL,
	"raw_size" integer NOT NULL,
	"domain" text,
	"org_name" text,
	"report_id" text,
	"email" text,
	"date_begin" timestamp with time zone,
	"date_end" timestamp with time zone,
	"adkim" text,
	"aspf" text,
	"p" text,
	"sp" text,
	"np" text,
	"pct" integer,
	"fo" text,
	"testing" text,
	"record_count" integer DEFAULT 0 NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"pass_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dmarc_records" ADD CONSTRAINT "dmarc_records_report_id_dmarc_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."dmarc_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dmarc_reports" ADD CONSTRAINT "dmarc_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dmarc_records_report_idx" ON "dmarc_records" USING btree ("report_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dmarc_reports_user_org_report_key" ON "dmarc_reports" USING btree ("user_id","org_name","report_id");--> statement-breakpoint
CREATE INDEX "dmarc_reports_user_begin_idx" ON "dmarc_reports" USING btree ("user_id","date_begin");--> statement-breakpoint
CREATE INDEX "dmarc_reports_user_domain_begin_idx" ON "dmarc_reports" USING btree ("user_id","domain","date_begin");