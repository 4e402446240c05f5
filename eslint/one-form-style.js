// One form style (docs/architecture.md, "A new form"): a form is <Form schema> (web/components/form.tsx), so a
// slip is said at its field by the contract's schema and the server's refusal lands where it belongs. That file
// is the one place that writes a <form> element and calls react-hook-form's useForm; anywhere else either is a
// form of its own making (its own checks, its own error state, its own pending button): refused.
// A form with nothing to check before sending (a chat box, a typed confirmation, a code only the server can
// judge, Stripe's own card fields) is not a copy of <Form>: it says so where it stands, with
// `eslint-disable-next-line form/one-form-style -- <why>`, so every exception carries its reason.
// Tests are left out: they render forms, they do not write them.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const FORM_WRAPPER = 'web/components/form.tsx';
const isTest = (rel) => /\.test\.tsx?$/.test(rel) || /(^|\/)test\//.test(rel);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A web form is <Form schema>, never a <form> or a useForm of its own' },
    schema: [],
  },
  create(context) {
    const rel = path.relative(root, context.filename).split(path.sep).join('/');
    if (!rel.startsWith('web/') || rel === FORM_WRAPPER || isTest(rel)) return {};
    return {
      JSXOpeningElement(node) {
        if (node.name.type !== 'JSXIdentifier' || node.name.name !== 'form') return;
        context.report({
          node,
          message:
            'A hand-rolled <form>: write it with <Form schema> (web/components/form.tsx), so the contract checks it; a form with nothing to check says why in an eslint-disable comment.',
        });
      },
      CallExpression(node) {
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'useForm') return;
        context.report({
          node,
          message:
            "react-hook-form's useForm called directly: write the form with <Form schema> (web/components/form.tsx), the one place that calls it.",
        });
      },
    };
  },
};
