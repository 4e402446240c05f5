-- Rows that predate this column get a random token, then the default goes: new rows bring their own.
ALTER TABLE "domains" ADD COLUMN "verification_token" text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');--> statement-breakpoint
ALTER TABLE "domains" ALTER COLUMN "verification_token" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "dkim_selectors" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "notes" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "checks" jsonb;