import { FaqSection } from './faq-section';
import { HeroSection } from './hero-section';
import { LandingFooter } from './landing-footer';
import { LandingHeader } from './landing-header';
import { ComparisonSection, PlansSection } from './pricing-sections';
import { AlertsSection, FeaturesSection, IntegrationsSection, OnboardingSection } from './product-sections';
import { SamplePlacementSection, TestimonialsSection } from './proof-sections';

/**
 * The signed-out home page (part 1, section 2.2), sections in the spec's order. It ships in the
 * first JavaScript chunk: keep it light (no zod, no heavy libraries); the chat panel loads lazily.
 * Texts come from content/, which the server's chat assistant reads too. The router adds the chat
 * button and the cookie banner (app/public-extras.tsx).
 */
export function LandingPage() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <LandingHeader />
      <main id="main" className="flex-1">
        <HeroSection />
        <FeaturesSection />
        <OnboardingSection />
        <AlertsSection />
        <IntegrationsSection />
        <ComparisonSection />
        <PlansSection />
        <SamplePlacementSection />
        <TestimonialsSection />
        <FaqSection />
      </main>
      <LandingFooter />
    </div>
  );
}
