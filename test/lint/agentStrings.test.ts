/**
 * Every text the agent app shows goes through the catalogues (docs/I18N.md):
 * this parses each component of web/agent/src (the TypeScript compiler's
 * parser) and fails, naming file:line, on JSX text with a letter in it and on
 * a string with a letter given to a prop a person reads (aria-label, title,
 * placeholder, alt, label, *Label, *Text, *Title, notice, message) other than
 * through t() / tn(). Write the text in i18n/en/ and read it with t('key').
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = 'web/agent/src';

/** True non-texts: words that are the same in every language. Each says why. */
const ALLOWED: Record<string, string> = {
  Parley: 'the product’s name, never translated',
  'Ctrl+K': 'a key name as printed on the keyboard',
};

const READ_PROPS = new Set([
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'title',
  'placeholder',
  'alt',
  'label',
  'notice',
  'message',
]);
const isReadProp = (name: string): boolean => READ_PROPS.has(name) || /(Label|Text|Title)$/.test(name);
const LETTER = /\p{L}/u;

/** An example address or link (a placeholder such as you@example.com): the same in every language. */
const ADDRESS = /^(\S+@\S+\.\S+|https?:\/\/\S+)$/;

const hasLetters = (s: string): boolean => LETTER.test(s) && !(s.trim() in ALLOWED) && !ADDRESS.test(s.trim());

/** The bare texts of one source: `line: text` for each. */
export function bareTexts(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string): void => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    found.push(`${line}: ${text.trim().replace(/\s+/g, ' ')}`);
  };
  /** Strings a prop's value gives as the text itself (a literal, a template's words, either side of ?: or ??/||). */
  const literals = (e: ts.Expression): ts.Node[] => {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return hasLetters(e.text) ? [e] : [];
    if (ts.isTemplateExpression(e)) {
      const words = [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' ');
      return hasLetters(words) ? [e] : [];
    }
    if (ts.isParenthesizedExpression(e)) return literals(e.expression);
    if (ts.isConditionalExpression(e)) return [...literals(e.whenTrue), ...literals(e.whenFalse)];
    if (ts.isBinaryExpression(e) && [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.PlusToken].includes(e.operatorToken.kind))
      return [...literals(e.left), ...literals(e.right)];
    return [];
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && hasLetters(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(sf);
      if (isReadProp(name)) {
        const init = node.initializer;
        if (ts.isStringLiteral(init)) {
          if (hasLetters(init.text)) report(init, `${name}="${init.text}"`);
        } else if (ts.isJsxExpression(init) && init.expression) {
          for (const n of literals(init.expression)) report(n, `${name}={${n.getText(sf)}}`);
        }
      }
    }
    // A string put straight between JSX tags: <p>{'Saved'}</p>, <p>{ok ? 'Saved' : x}</p>.
    if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      for (const n of literals(node.expression)) report(n, n.getText(sf));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every source of the app but the catalogues and tests (where a key is read). */
function sources(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return rel === `${SRC}/i18n` ? [`${rel}/index.ts`] : sources(rel);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

function components(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return components(rel);
    return entry.name.endsWith('.tsx') && !/\.test\.tsx$/.test(entry.name) ? [rel] : [];
  });
}

describe('agent app texts', () => {
  it('reports a bare text and a bare read prop, and lets t() and tn() through', () => {
    const bare = `const A = () => <div title="Close it"><p>Saved</p><input placeholder={'Search'} aria-label={x ? 'On' : 'Off'} /><b>{'Hi there'}</b></div>;`;
    expect(bareTexts('a.tsx', bare)).toEqual([
      '1: title="Close it"',
      '1: Saved',
      "1: placeholder={'Search'}",
      "1: aria-label={'On'}",
      "1: aria-label={'Off'}",
      "1: 'Hi there'",
    ]);
    const done = `const A = () => <div title={t('x.close')}><p>{t('common.saved')}</p><input placeholder={t('common.search')} className="big" data-k="a b" /><i>{tn('x.n', 2)} · {n}</i><b>Parley</b><input placeholder="you@example.com" /></div>;`;

    expect(bareTexts('a.tsx', done)).toEqual([]);
  });

  it('finds no bare text in the agent app’s components', () => {
    const files = components(SRC);
    expect(files.length).toBeGreaterThan(100);
    const bare = files.flatMap((f) => bareTexts(f, fs.readFileSync(path.join(ROOT, f), 'utf8')).map((l) => `${f}:${l}`));
    expect(bare, 'texts not read through t()/tn() (add them to web/agent/src/i18n/en/)').toEqual([]);
  });

  it('has no text in the catalogues that nothing reads (each costs every language’s chunks)', () => {
    const code = sources(SRC)
      .map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'))
      .join('\n');
    // A key built from a template (`admin.agents.status.${status}`) reads every key under its prefix.
    const prefixes = [...code.matchAll(/`((?:common|workspace|pages|admin)\.[\w.]+)\$\{/g)].map((m) => m[1]);
    const keys = ['common', 'workspace', 'pages', 'admin'].flatMap((part) =>
      Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, SRC, 'i18n/en', `${part}.json`), 'utf8')) as object),
    );
    expect(keys.length).toBeGreaterThan(1000);
    const unread = keys.filter((k) => !code.includes(`'${k}'`) && !code.includes(`"${k}"`) && !prefixes.some((p) => k.startsWith(p)));
    expect(unread, 'keys no source of web/agent/src reads: remove them from every language').toEqual([]);
  });
});
