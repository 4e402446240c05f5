CREATE TABLE "delivery_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"source" text NOT NULL,
	"message_id" text NOT NULL,
	"recipient" text NOT NULL,
	"event_type" text NOT NULL,
	"bounce_class" text,
	"enhanced_status" text,
	"smtp_response" text,
	"domain" text,
	"recipient_domain" text NOT NULL,
	"mailbox_provider" text DEFAULT '' NOT NULL,
	"sending_ip" text DEFAULT '' NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "email_metrics_user_provider_date_key";--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "credentials_encrypted" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "config" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "next_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "email_metrics" ADD COLUMN "mailbox_provider" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_metrics" ADD COLUMN "sending_ip" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "email_metrics" ADD COLUMN "hard_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_metrics" ADD COLUMN "soft_bounces" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_metrics" ADD COLUMN "deferred" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_metrics" ADD COLUMN "opens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_metrics" ADD COLUMN "clicks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "delivery_events" ADD CONSTRAINT "delivery_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_events_once_key" ON "delivery_events" USING btree ("user_id","message_id","recipient","event_type");--> statement-breakpoint
CREATE INDEX "delivery_events_user_time_idx" ON "delivery_events" USING btree ("user_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "email_metrics_user_provider_date_key" ON "email_metrics" USING btree ("user_id","provider","date","mailbox_provider","sending_ip");