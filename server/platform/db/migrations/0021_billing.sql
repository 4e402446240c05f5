CREATE TABLE "billing_coupons" (
	"code" text PRIMARY KEY NOT NULL,
	"percent_off" real,
	"amount_off_cents" integer,
	"valid_until" timestamp with time zone,
	"max_redemptions" integer,
	"redemptions" integer DEFAULT 0 NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_coupons_one_discount" CHECK (("billing_coupons"."percent_off" IS NULL) <> ("billing_coupons"."amount_off_cents" IS NULL)),
	CONSTRAINT "billing_coupons_percent_range" CHECK ("billing_coupons"."percent_off" IS NULL OR ("billing_coupons"."percent_off" > 0 AND "billing_coupons"."percent_off" <= 100)),
	CONSTRAINT "billing_coupons_amount_positive" CHECK ("billing_coupons"."amount_off_cents" IS NULL OR "billing_coupons"."amount_off_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"status" text,
	"price_id" text,
	"interval" text,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"stripe_subscription_created" bigint,
	"coupon_code" text,
	"coupon_percent_off" real,
	"coupon_amount_off_cents" integer,
	"coupon_redeemed_at" timestamp with time zone,
	"registration_coupon_used" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_subscriptions_stripeCustomerId_unique" UNIQUE("stripe_customer_id"),
	CONSTRAINT "billing_subscriptions_stripeSubscriptionId_unique" UNIQUE("stripe_subscription_id")
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_coupons_code_lower_key" ON "billing_coupons" USING btree (lower("code"));