CREATE TABLE "dmarc_reporter_alerts" (
	"user_id" integer NOT NULL,
	"domain" text NOT NULL,
	"org_name" text NOT NULL,
	"last_report_at" timestamp with time zone NOT NULL,
	CONSTRAINT "dmarc_reporter_alerts_user_id_domain_org_name_pk" PRIMARY KEY("user_id","domain","org_name")
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"source_key" text,
	"remote_ip" text,
	"helo" text,
	"mail_from" text,
	"rcpt_to" text[] NOT NULL,
	"size" integer NOT NULL,
	"raw" "bytea",
	"status" text DEFAULT 'received' NOT NULL,
	"result" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "dmarc_reporter_alerts" ADD CONSTRAINT "dmarc_reporter_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_source_key" ON "inbound_messages" USING btree ("source_key");--> statement-breakpoint
CREATE INDEX "inbound_messages_status_idx" ON "inbound_messages" USING btree ("status","received_at");