/**
 * Secrets are compared in constant time. A code-level test over server/**:
 * no `===`/`!==`/`==`/`!=` between two values whose names say secret, token,
 * signature, CSRF, password or hash (the TypeScript AST, so formatting cannot
 * hide one); no database lookup by a plain secret column (only `*_hash`
 * columns, looked up with sha256 of the secret); and the places that check a
 * secret — the chat channel's random string, the CSRF header, the widget's
 * user-token signature, passwords, API and visitor tokens — go through
 * safeEqual / timingSafeEqual / a hash lookup.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { safeEqual } from '../../server/lib/ids.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SECRETISH = /secret|token|signature|csrf|password|passwd|hash|hmac|digest|api_?key/i;
const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

function serverSources(dir = path.join(ROOT, 'server')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return serverSources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

/** A side of a comparison that cannot be a secret: a literal, null/undefined, `typeof x`, `x.length`. */
function harmless(node: ts.Expression): boolean {
  const n = ts.isParenthesizedExpression(node) ? node.expression : node;
  if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isNumericLiteral(n)) return true;
  if ([ts.SyntaxKind.NullKeyword, ts.SyntaxKind.TrueKeyword, ts.SyntaxKind.FalseKeyword].includes(n.kind)) return true;
  if (ts.isIdentifier(n) && n.text === 'undefined') return true;
  if (ts.isTypeOfExpression(n)) return true;
  return ts.isPropertyAccessExpression(n) && n.name.text === 'length';
}

/** Plain equality comparisons involving a secret-looking value, as "line: text". */
function plainSecretComparisons(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      const secretish = SECRETISH.test(node.left.getText(source)) || SECRETISH.test(node.right.getText(source));
      if (secretish && !harmless(node.left) && !harmless(node.right)) {
        found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const read = (rel: string): string => fs.readFileSync(path.join(ROOT, rel), 'utf8');

describe('secrets are compared in constant time', () => {
  it('safeEqual is timingSafeEqual over bytes, and false (not a throw) for different lengths', () => {
    expect(read('server/lib/ids.ts')).toMatch(/crypto\.timingSafeEqual\(ab, bb\)/);
    expect(safeEqual('s3cret', 's3cret')).toBe(true);
    expect(safeEqual('s3cret', 's3creT')).toBe(false);
    expect(safeEqual('s3cret', 's3cret-longer')).toBe(false);
    expect(safeEqual('é', 'e\u0301')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });

  it('finds a plain comparison when there is one (the scanner works)', () => {
    const bad = `if (given === channel.secret) ok(); if (req.headers['x-csrf-token'] != cookie) no(); const a = sig !== expectedSignature;`;
    expect(plainSecretComparisons('bad.ts', bad)).toHaveLength(3);
    const fine = `if (typeof token !== 'string' || token === '' || token.length > 200) no(); if (secret === null) x();`;
    expect(plainSecretComparisons('fine.ts', fine)).toEqual([]);
  });

  it('has no plain equality between secret values anywhere in server/', () => {
    const files = serverSources();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => plainSecretComparisons(f, fs.readFileSync(f, 'utf8')).map((hit) => `${path.relative(ROOT, f)}:${hit}`));
    expect(found).toEqual([]);
  });

  it('looks nothing up by a plain secret column: only *_hash columns, with sha256 of the secret', () => {
    const lookups = serverSources().flatMap((f) => {
      const text = fs.readFileSync(f, 'utf8');
      return (
        [...text.matchAll(/where\(\s*'([\w.]*(?:secret|token|signature|csrf|password)[\w]*)'\s*,\s*'='\s*,\s*([^)]*\)?)/gi)]
          .map((m) => ({
            file: path.relative(ROOT, f),
            column: m[1],
            value: m[2],
          }))
          // agents.password_state says whether the password is one-time: a state, not a secret.
          .filter((l) => l.column !== 'password_state')
          // visitors.user_token is the site's own name for its user (svc_api.setUserToken), not a secret of
          // Parley's: an administrator finds a person's records by it (domain/visitors/findVisitors.ts).
          .filter((l) => !(l.column === 'user_token' && l.file === path.join('server', 'domain', 'visitors', 'findVisitors.ts')))
      );
    });
    expect(lookups.length).toBeGreaterThan(0);
    for (const l of lookups) {
      expect(l.column, `${l.file}: ${l.column}`).toMatch(/_hash$/);
      expect(l.value, `${l.file}: ${l.column}`).toMatch(/^sha256\(/);
    }
  });

  it('checks each secret of the service through safeEqual, timingSafeEqual or a hash lookup', () => {
    // The chat channel's random string.
    expect(read('server/domain/chatChannel/findChannel.ts')).toMatch(/safeEqual\(channel\.secret, secret\)/);
    // The CSRF header against its cookie.
    expect(read('server/routes/authenticate.ts')).toMatch(/safeEqual\(header, cookie\)/);
    // The widget's user-token signature (HMAC) against the one computed here.
    expect(read('server/domain/widget/setUserToken.ts')).toMatch(/safeEqual\(signature\.toLowerCase\(\), userTokenSignature\(token, secret\)\)/);
    // Passwords: scrypt, then timingSafeEqual; an unknown e-mail is checked against a dummy hash.
    const passwords = read('server/domain/auth/passwords.ts');
    expect(passwords).toMatch(/crypto\.timingSafeEqual\(actual, checked\.hash\)/);
    expect(read('server/domain/auth/login.ts')).toMatch(/verifyPassword\(input\.password, agent\?\.password_hash \?\? dummyHash\(\)\)/);
    // API tokens and visitor tokens: only their sha256 is stored and looked up.
    expect(read('server/domain/auth/tokens.ts')).toMatch(/token_hash: sha256\(token\)/);
    expect(read('server/domain/auth/tokens.ts')).toMatch(/where\('auth_tokens\.token_hash', '=', sha256\(token\)\)/);
    expect(read('server/domain/widget/visitorAccess.ts')).toMatch(/where\('token_hash', '=', sha256\(token\)\)/);
  });
});
