ALTER TABLE "alert_settings" ADD COLUMN "sms_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD COLUMN "sms_code_hash" text;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD COLUMN "sms_code_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD COLUMN "sms_code_tries" integer DEFAULT 0 NOT NULL;