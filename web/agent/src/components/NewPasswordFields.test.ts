/** The refusal every new-password form gives before sending: two that differ first, then one too short, in the form's own words. */
import { describe, expect, it } from 'vitest';
import { passwordProblem } from './NewPasswordFields';

describe('passwordProblem', () => {
  it('says the two differ before it says either is short', () => {
    expect(passwordProblem({ password: 'short', again: 'other' })).toBe('The two passwords differ; type the same password twice.');
  });

  it('asks for 8 characters when the two agree', () => {
    expect(passwordProblem({ password: 'seven77', again: 'seven77' })).toBe('Your password needs at least 8 characters.');
    expect(passwordProblem({ password: 'eight888', again: 'eight888' })).toBeNull();
  });

  it('speaks in the words the form names (Profile → Password)', () => {
    const texts = { differ: 'pages.profilePassword.differ', tooShort: 'pages.profilePassword.tooShort' } as const;
    expect(passwordProblem({ password: 'a', again: 'b' }, texts)).toBe('The two new passwords differ; type the same one twice.');
    expect(passwordProblem({ password: 'abc', again: 'abc' }, texts)).toBe('The new password needs at least 8 characters.');
  });
});
