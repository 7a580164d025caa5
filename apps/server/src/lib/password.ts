import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax)
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Costs one real verification, so an unknown account takes as long as a known one. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  // Stryker disable next-line StringLiteral: any text gives an equally costly dummy hash
  dummyHash ??= hashPassword('dummy password for timing equality');
  await verifyPassword(await dummyHash, password);
  return false;
}
