import { afterEach, describe, expect, it, vi } from 'vitest';
import { REMEMBERED_LOGIN_KEY } from '@portal/contract';
import { readRememberedLogin, saveRememberedLogin } from './remembered-login';

const saved = {
  email: 'demo@acme.example',
  mobile: '9876543210',
  gstNo: '27AAPFU0939F1ZV',
  tally_serialno: '712345678',
};

afterEach(() => localStorage.clear());

/** Reads `stored` as the saved entry, with the console error a discarded entry logs silenced. */
function readStored(stored: unknown) {
  localStorage.setItem(REMEMBERED_LOGIN_KEY, JSON.stringify(stored));
  const consoleError = vi.mocked(console.error);
  const failOnError = consoleError.getMockImplementation();
  consoleError.mockImplementation(() => {});
  try {
    return { entry: readRememberedLogin(), logged: consoleError.mock.calls.length > 0 };
  } finally {
    consoleError.mockImplementation(failOnError!);
    consoleError.mockClear();
  }
}

describe('readRememberedLogin', () => {
  it('reads back what was saved, with rememberMe set', () => {
    saveRememberedLogin(saved);
    expect(readRememberedLogin()).toEqual({ ...saved, rememberMe: true });
  });

  it('keeps only the form fields of an entry that carries more', () => {
    const { entry } = readStored({ ...saved, rememberMe: true, password: 'Secret@123' });
    expect(entry).toEqual({ ...saved, rememberMe: true });
  });

  it.each([
    ['a field that is not a string', { ...saved, mobile: 9876543210, rememberMe: true }],
    ['a missing field', { email: saved.email, mobile: saved.mobile, rememberMe: true }],
    ['rememberMe other than true', { ...saved, rememberMe: 'yes' }],
    ['no object at all', ['demo@acme.example']],
    ['null', null],
  ])('discards an entry with %s, with a console error', (_, stored) => {
    const { entry, logged } = readStored(stored);
    expect(entry).toBeNull();
    expect(logged).toBe(true);
    expect(localStorage.getItem(REMEMBERED_LOGIN_KEY)).toBeNull();
  });
});
