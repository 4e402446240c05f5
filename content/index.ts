/** The product's public texts in one import, for the server's chat assistant and tests. */
export * from './company';
export * from './faq';
export * from './features';
export * from './guides';
export * from './integrations';
export * from './plans';
export * from './sample-placement';
export * from './testimonials';
