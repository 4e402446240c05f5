DROP INDEX "alerts_user_created_idx";--> statement-breakpoint
CREATE INDEX "alerts_user_created_idx" ON "alerts" USING btree ("user_id","created_at","id");