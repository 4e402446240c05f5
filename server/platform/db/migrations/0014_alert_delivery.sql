CREATE TABLE "alert_digests" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"channel" text NOT NULL,
	"frequency" text NOT NULL,
	"items" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"outbox_id" integer,
	"event_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alert_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"alert_id" integer NOT NULL,
	"event" text NOT NULL,
	"type" text NOT NULL,
	"severity" text NOT NULL,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"domain" text,
	"rule_id" integer,
	"occurred_at" timestamp with time zone NOT NULL,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "resolution_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "alert_digests" ADD CONSTRAINT "alert_digests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_digests_pending_idx" ON "alert_digests" USING btree ("created_at") WHERE "alert_digests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "alert_digests_user_idx" ON "alert_digests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "alert_notifications_pending_idx" ON "alert_notifications" USING btree ("user_id","occurred_at") WHERE "alert_notifications"."claimed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "alert_notifications_alert_idx" ON "alert_notifications" USING btree ("alert_id");--> statement-breakpoint
CREATE INDEX "alerts_notification_due_idx" ON "alerts" USING btree ("user_id") WHERE "alerts"."notified_at" IS NULL OR ("alerts"."resolved_at" IS NOT NULL AND "alerts"."resolution_notified_at" IS NULL);--> statement-breakpoint
CREATE UNIQUE INDEX "webhooks_user_source_key" ON "webhooks" USING btree ("user_id","source") WHERE "webhooks"."source" IS NOT NULL;--> statement-breakpoint
-- Resolutions recorded before delivery existed are not announced now; nor are alerts raised more than a
-- day before it (0013 marked the older ones): only news is sent.
UPDATE "alerts" SET "resolution_notified_at" = "resolved_at" WHERE "resolved_at" IS NOT NULL;--> statement-breakpoint
UPDATE "alerts" SET "notified_at" = "created_at" WHERE "notified_at" IS NULL AND "created_at" < now() - interval '1 day';
