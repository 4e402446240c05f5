// One form style (docs/architecture.md, "A new form"): a form is <Form schema> (web/components/form.tsx), or,
// in the older forms, react-hook-form called the same way, so a slip is said at its field by the contract's
// schema and the server's refusal lands where it belongs. A <form> element in a file that does not use
// react-hook-form is a hand-rolled form (values in useState, its own checks, its own error state): refused.
// A form with nothing to check before sending (a chat box, a typed confirmation, a code only the server can
// judge, Stripe's own card fields) is not a hand-rolled copy of <Form>: it says so where it stands, with
// `eslint-disable-next-line form/one-form-style -- <why>`, so every exception carries its reason.
// Tests are left out: they render forms, they do not write them.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const isTest = (rel) => /\.test\.tsx?$/.test(rel) || /(^|\/)test\//.test(rel);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A web form is <Form schema> or driven by react-hook-form, never hand-rolled' },
    schema: [],
  },
  create(context) {
    const rel = path.relative(root, context.filename).split(path.sep).join('/');
    if (!rel.startsWith('web/') || isTest(rel)) return {};
    let usesFormLibrary = false;
    const forms = [];
    return {
      ImportDeclaration(node) {
        if (node.source.value === 'react-hook-form') usesFormLibrary = true;
      },
      JSXOpeningElement(node) {
        if (node.name.type === 'JSXIdentifier' && node.name.name === 'form') forms.push(node);
      },
      'Program:exit'() {
        if (usesFormLibrary) return;
        for (const node of forms)
          context.report({
            node,
            message:
              'A hand-rolled <form>: write it with <Form schema> (web/components/form.tsx), so the contract checks it; a form with nothing to check says why in an eslint-disable comment.',
          });
      },
    };
  },
};
